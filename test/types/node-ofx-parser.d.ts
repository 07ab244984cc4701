/** The OFX parser the statement's file tests read OFX back with (a dev dependency without types of its own). */
declare module 'node-ofx-parser' {
	export function parse(data: string): {
		header: Record<string, string>;
		OFX: Record<string, unknown>;
	};
}
