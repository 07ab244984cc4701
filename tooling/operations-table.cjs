// The README's Operations table, and the table of what each class of operation may do to money
// (Guardrails), rendered from the action node's operation records (their resources, operations,
// `money` and `moneyWith` classes, requests, fields and sources) and MONEY_CLASSES: tooling/docs.cjs
// writes them into the README's generated sections `operations` and `moneyclasses` (`npm run docs`),
// and test/package/readme.test.ts and docs.test.ts fail when the README differs.
'use strict';

const KIND_NOTES = {
	pagedList: (spec) => `paged, ${spec.pageSize} per page`,
	wholeList: () => 'whole list',
	withdrawal: () => 'sent once per External ID',
	singleWrite: () => 'never repeated',
	report: (spec) => spec.readsNote,
};

/** The class of an operation record, refusing a record without one. */
function classOf(resourceName, spec, MONEY_CLASSES) {
	const money = MONEY_CLASSES[spec.money];
	if (!money)
		throw new Error(
			`${resourceName} → ${spec.option.name} has no class of what it can do to money`,
		);
	return money;
}

/** The class of an item that adds the record's `moneyWith` Additional Fields ('with a settlement bank'), if any. */
function classWith(resourceName, spec, MONEY_CLASSES) {
	if (!spec.moneyWith) return undefined;
	const money = MONEY_CLASSES[spec.moneyWith.money];
	if (!money)
		throw new Error(
			`${resourceName} → ${spec.option.name} ${spec.moneyWith.name} has no class of what it can do to money`,
		);
	return money;
}

/**
 * Field labels as the editor shows them; a collection as "Label: option, option", without an option
 * shown only while a saved workflow sets it (its displayOptions look at itself: Dry Run under
 * Additional Fields, fields/fields.ts DRY_RUN_SAVED).
 */
function fieldsText(fields) {
	const names = [];
	const offered = (option) =>
		!(
			option.displayOptions &&
			option.displayOptions.show &&
			option.name in option.displayOptions.show
		);
	for (const field of fields) {
		const label =
			field.type === 'collection'
				? `${field.displayName}: ${field.options
						.filter(offered)
						.map((option) => option.displayName)
						.join(', ')}`
				: field.displayName;
		if (!names.includes(label)) names.push(label);
	}
	return names.join('; ') || '—';
}

/** The table for these resources (RESOURCES of nodes/CryptoSettlement/operations) and MONEY_CLASSES. */
function operationsTable(resources, MONEY_CLASSES) {
	const rows = [
		'| Resource | Operation | Money | Request | Fields | Source |',
		'|---|---|---|---|---|---|',
	];
	for (const { name, specs } of Object.values(resources)) {
		for (const [value, spec] of Object.entries(specs)) {
			const note = KIND_NOTES[spec.kind]?.(spec);
			const raised = classWith(name, spec, MONEY_CLASSES);
			const money = `${classOf(name, spec, MONEY_CLASSES).name}${raised ? `; ${raised.name} ${spec.moneyWith.name}` : ''}`;
			const source = spec.source === 'unconfirmed' ? '**path unconfirmed anywhere**' : spec.source;
			// A report reads several routes (its `reads`); every other operation sends one request.
			const request = (spec.reads ?? [`${spec.method} ${spec.path}`])
				.map((route) => `\`${route}\``)
				.join(', ');
			rows.push(
				`| ${name} | ${spec.option.name} (\`${value}\`)${note ? ` (${note})` : ''} | ${money} | ${request} | ${fieldsText(spec.fields)} | ${source} |`,
			);
		}
	}
	return rows.join('\n');
}

/**
 * The classes of what an operation can do to money (MONEY_CLASSES of record/moneyClasses.ts, their
 * words written there once), each with its operations as the records class them.
 */
function classesTable(resources, MONEY_CLASSES) {
	const rows = ['| Class | Operations | Guardrails | From an AI agent |', '|---|---|---|---|'];
	for (const [value, money] of Object.entries(MONEY_CLASSES)) {
		const operations = [];
		for (const { name, specs } of Object.values(resources)) {
			const names = Object.values(specs).flatMap((spec) => [
				...(classOf(name, spec, MONEY_CLASSES) === money
					? [`${spec.option.name}${spec.moneyWith ? ` (not ${spec.moneyWith.name})` : ''}`]
					: []),
				...(classWith(name, spec, MONEY_CLASSES) === money
					? [`${spec.option.name} ${spec.moneyWith.name}`]
					: []),
			]);
			if (names.length) operations.push(`${name} → ${names.join(', ')}`);
		}
		rows.push(
			`| **${money.name}** (\`${value}\`) | ${operations.join('; ')} | ${money.guardrails} | ${money.agents} |`,
		);
	}
	return rows.join('\n');
}

module.exports = { classesTable, operationsTable };
