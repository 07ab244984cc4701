#!/usr/bin/env node
// Where the fake API posts its webhooks (docs/fake-api.md, "Send webhooks to any URL").
//
//   node fake-api/webhook.mjs                       show the current webhook URL
//   node fake-api/webhook.mjs <url>                 post every later event (and pending retries) to <url>
//   node fake-api/webhook.mjs off                   record events without delivering them
//   --fake-api=http://127.0.0.1:5680                the fake API (default: $FAKE_API_URL or http://127.0.0.1:5680;
//                                                   --sandbox= and $SANDBOX_URL are still read)
//
// Typical use: while n8n waits for a test event on a new Crypto Settlement Trigger ("Execute step";
// n8n 1.x: "Listen for test event"), point the fake API at that node's Test URL, then back at the
// Production URL that `npm start` printed.

const args = process.argv.slice(2);
const option = args.find((a) => a.startsWith('--fake-api=') || a.startsWith('--sandbox='));
const fakeApi = (
	option?.split('=').slice(1).join('=') ||
	process.env.FAKE_API_URL ||
	process.env.SANDBOX_URL ||
	'http://127.0.0.1:5680'
)
	.replace(/\/+$/, '')
	.replace(/\/v1$/, '');
const target = args.find((a) => !a.startsWith('--'));

async function main() {
	const endpoint = `${fakeApi}/_sandbox/webhook`;
	const response =
		target === undefined
			? await fetch(endpoint)
			: await fetch(endpoint, {
					method: 'PUT',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ url: target === 'off' ? null : target }),
				});
	const text = await response.text();
	let answer;
	try {
		answer = JSON.parse(text);
	} catch {
		answer = { message: text };
	}
	if (!response.ok || answer.ok === false) {
		process.stderr.write(
			`fake API at ${fakeApi} answered ${response.status}: ${answer.message ?? text}\n`,
		);
		process.exit(1);
	}
	const url = answer.data?.url ?? null;
	process.stdout.write(
		url
			? `The fake API now posts its webhooks to ${url}\n`
			: 'The fake API records events without delivering them (no webhook URL)\n',
	);
}

main().catch((error) => {
	process.stderr.write(`could not reach the fake API at ${fakeApi}: ${error.message}\n`);
	process.exit(1);
});
