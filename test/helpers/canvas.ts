/** Where a workflow's nodes sit on n8n's canvas, for the tests that check example workflows and templates read well. */

export interface CanvasNode {
	type: string;
	position: [number, number];
	parameters: Record<string, unknown>;
}

export const isSticky = (node: CanvasNode) => node.type === 'n8n-nodes-base.stickyNote';

/** A node's box with room for its label below (n8n draws nodes 100 × 100 from their position), a sticky note's own. */
export const box = (node: CanvasNode) =>
	isSticky(node)
		? {
				left: node.position[0],
				top: node.position[1],
				right: node.position[0] + Number(node.parameters.width),
				bottom: node.position[1] + Number(node.parameters.height),
			}
		: {
				left: node.position[0],
				top: node.position[1],
				right: node.position[0] + 200,
				bottom: node.position[1] + 150,
			};

export type Box = ReturnType<typeof box>;
export const overlap = (a: Box, b: Box) =>
	a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
export const inside = (a: Box, b: Box) =>
	a.left >= b.left && a.right <= b.right && a.top >= b.top && a.bottom <= b.bottom;
