// Lints what n8n's community-package scanner lints, the way it does: the source of package.json,
// nodes/ and credentials/ with inline eslint-disable comments ignored (allowInlineConfig: false).
// `n8n-node lint` honours such comments; the verification gate does not, so neither do we.
import { ESLint } from 'eslint';

const eslint = new ESLint({ allowInlineConfig: false });
const results = await eslint.lintFiles(['package.json', 'nodes/**/*.ts', 'credentials/**/*.ts']);
const errors = results.reduce((sum, result) => sum + result.errorCount, 0);
if (errors > 0) {
	const formatter = await eslint.loadFormatter('stylish');
	process.stdout.write(await formatter.format(results.filter((result) => result.errorCount > 0)));
	process.stdout.write(`scan-lint: ${errors} error(s) with inline disables ignored\n`);
	process.exit(1);
}
process.stdout.write(`scan-lint: ${results.length} files clean with inline disables ignored\n`);
