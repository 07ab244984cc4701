/** The package's icon, light and dark, as the nodes in nodes/<Node>/ refer to it. */
export const NODE_ICON = {
	light: 'file:../../icons/cryptoSettlement.svg',
	dark: 'file:../../icons/cryptoSettlement.dark.svg',
} as const;
