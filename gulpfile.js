// Copies what tsc does not emit into dist/: the SVG icons and the nodes' codex JSON files.
const { src, dest } = require('gulp');

function copyIcons() {
	return src('icons/**/*.svg', { encoding: false }).pipe(dest('dist/icons'));
}

function copyCodex() {
	return src('nodes/**/*.node.json').pipe(dest('dist/nodes'));
}

exports['build:static'] = async function buildStatic() {
	await new Promise((resolve, reject) => copyIcons().on('finish', resolve).on('error', reject));
	await new Promise((resolve, reject) => copyCodex().on('finish', resolve).on('error', reject));
};
