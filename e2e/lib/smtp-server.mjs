// A tiny SMTP server on loopback for n8n's Send Email node (credential: host 127.0.0.1, its port,
// SSL/TLS off, STARTTLS disabled, no user). It accepts every message and keeps it: the envelope,
// the headers and the decoded text of each part, so a test can read what a person would.
// `onMessage` (npm start) is called with each message as it arrives.
import net from 'node:net';

import { httpJson, waitFor } from '../../tooling/util.mjs';
import { assert } from './report.mjs';

export async function startSmtpServer({ onMessage } = {}) {
	const messages = [];
	const waiters = new Set();
	const server = net.createServer((socket) => {
		socket.setEncoding('utf8');
		const reply = (line) => socket.write(`${line}\r\n`);
		let envelope = { from: '', to: [] };
		let buffer = '';
		let data;
		reply('220 e2e.local ESMTP');
		socket.on('data', (chunk) => {
			buffer += chunk;
			let end;
			while ((end = buffer.indexOf('\r\n')) >= 0) {
				const line = buffer.slice(0, end);
				buffer = buffer.slice(end + 2);
				if (data !== undefined) {
					if (line !== '.') {
						data.push(line.startsWith('..') ? line.slice(1) : line);
						continue;
					}
					const message = { ...envelope, at: Date.now(), ...parse(data.join('\r\n')) };
					messages.push(message);
					onMessage?.(message);
					for (const waiter of waiters) waiter();
					data = undefined;
					envelope = { from: '', to: [] };
					reply('250 OK: queued');
					continue;
				}
				const verb = line.slice(0, 4).toUpperCase();
				if (verb === 'EHLO') reply('250-e2e.local\r\n250 8BITMIME');
				else if (verb === 'HELO') reply('250 e2e.local');
				else if (verb === 'MAIL') ((envelope.from = line.slice(10).trim()), reply('250 OK'));
				else if (verb === 'RCPT') (envelope.to.push(line.slice(8).trim()), reply('250 OK'));
				else if (verb === 'DATA') ((data = []), reply('354 End data with <CR><LF>.<CR><LF>'));
				else if (verb === 'RSET') ((envelope = { from: '', to: [] }), reply('250 OK'));
				else if (verb === 'NOOP') reply('250 OK');
				else if (verb === 'QUIT') (reply('221 Bye'), socket.end());
				else reply('502 Command not implemented');
			}
		});
		socket.on('error', () => {});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: server.address().port,
		messages,
		/** The first message (from `after` on) that `match` accepts; waits for it up to `timeoutMs`. */
		async next(match, { after = 0, timeoutMs = 60000 } = {}) {
			const find = () => messages.slice(after).find(match);
			return (
				find() ??
				(await new Promise((resolve, reject) => {
					const timer = setTimeout(
						() => (
							waiters.delete(check),
							reject(
								new Error(
									`no such email within ${timeoutMs / 1000}s (${messages.length} received)`,
								),
							)
						),
						timeoutMs,
					);
					const check = () => {
						const found = find();
						if (found) (clearTimeout(timer), waiters.delete(check), resolve(found));
					};
					waiters.add(check);
				}))
			);
		},
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

/** An approval email's links (n8n's Send and Wait), by what they answer, and its text as a mail client shows it (not the head's title, n8n's "My form"). */
export function approvalLinks(email) {
	const html = email.parts.find((part) => part.type === 'text/html')?.text ?? '';
	const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
	return {
		approve: links.find((l) => /[?&]approved=true/.test(l)),
		decline: links.find((l) => /[?&]approved=false/.test(l)),
		text: html
			.replace(/<head[\s\S]*?<\/head>/i, ' ')
			.replace(/<[^>]+>/g, ' ')
			.replace(/&amp;/g, '&')
			.replace(/\s+/g, ' '),
	};
}

/** Headers (lower-case names; encoded words decoded) and the decoded text of every leaf part. */
function parse(raw) {
	const { headers, body } = splitHeaders(raw);
	return { headers, subject: headers.subject ?? '', parts: leaves(headers, body) };
}

function splitHeaders(raw) {
	const at = raw.indexOf('\r\n\r\n');
	const head = at < 0 ? raw : raw.slice(0, at);
	const headers = {};
	for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
		const colon = line.indexOf(':');
		if (colon > 0)
			headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(
				line.slice(colon + 1).trim(),
			);
	}
	return { headers, body: at < 0 ? '' : raw.slice(at + 4) };
}

function leaves(headers, body) {
	const type = headers['content-type'] ?? 'text/plain';
	const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
	if (/^multipart\//i.test(type) && boundary) {
		return body
			.split(`--${boundary}`)
			.slice(1)
			.filter((part) => !part.startsWith('--'))
			.flatMap((part) => {
				const inner = splitHeaders(part.replace(/^\r\n/, ''));
				return leaves(inner.headers, inner.body);
			});
	}
	return [
		{
			type: type.split(';')[0].trim().toLowerCase(),
			text: decodeBody(body, headers['content-transfer-encoding']),
		},
	];
}

function decodeBody(body, encoding = '') {
	if (/quoted-printable/i.test(encoding)) {
		const bytes = body
			.replace(/=\r\n/g, '')
			.replace(/=([0-9A-F]{2})/gi, (_m, hex) => String.fromCharCode(parseInt(hex, 16)));
		return Buffer.from(bytes, 'latin1').toString('utf8');
	}
	if (/base64/i.test(encoding))
		return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
	return body;
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=), as nodemailer writes a non-ASCII subject. */
function decodeWords(text) {
	return text.replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=\s*/gi, (_m, _charset, kind, value) =>
		kind.toUpperCase() === 'B'
			? Buffer.from(value, 'base64').toString('utf8')
			: Buffer.from(
					value
						.replace(/_/g, ' ')
						.replace(/=([0-9A-F]{2})/gi, (_x, hex) => String.fromCharCode(parseInt(hex, 16))),
					'latin1',
				).toString('utf8'),
	);
}

/** n8n ignores an approval link opened without a browser's user agent (a mail scanner's preview). */
const BROWSER =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

/** Opens an approval link as a person's browser would, once n8n has put the execution to wait. */
export async function followApprovalLink(url) {
	let res;
	// The email leaves before n8n has put the execution to wait: until then the link answers 409.
	await waitFor(
		async () => {
			res = await httpJson('GET', url, { headers: { 'user-agent': BROWSER, accept: 'text/html' } });
			return res.status !== 409;
		},
		{ timeoutMs: 30000, intervalMs: 500, what: 'the execution waiting for the approval' },
	);
	assert(res.status === 200, `the link answered ${res.status}: ${res.text.slice(0, 200)}`);
}

/** What a person reads in an email: its plain-text part, or its HTML part without markup. */
export function mailText(email) {
	const plain = email.parts.find((part) => part.type === 'text/plain')?.text;
	return (plain ?? approvalLinks(email).text).replace(/\s+/g, ' ').trim();
}
