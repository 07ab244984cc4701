// A scripted OpenAI-compatible chat model on loopback, for n8n's OpenAI Chat Model node (its
// credential's Base URL points here). Each conversation carries a tag `[e2e:<scenario>]` in its user
// message; the scenario lists the tool calls to make, one per turn, and then a final answer that
// relays what the tools answered, in their words. Every request is kept, so a test can read what n8n sent back
// to the model (the tool results) and which tools it offered (names and argument schemas).
// With `{ demo: true }` (npm start), a conversation without a tag is played by demoSteps: a request
// naming an amount in USD and an order pays it once with the offered payment tool.
import http from 'node:http';

import { withBody } from './collector.mjs';

/**
 * `scenarios`: { [tag]: Array<{ tool: string, args: object }> }.
 * Routes: POST /v1/chat/completions (plain or `stream: true`), GET /v1/models.
 */
export async function startFakeLlm(scenarios, { demo = false } = {}) {
	const requests = [];
	const server = http.createServer((req, res) =>
		withBody(req, (body) => {
			const send = (status, json) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(json));
			};
			const route = `${req.method} ${req.url.split('?')[0].replace(/\/+$/, '')}`;
			if (route === 'GET /v1/models')
				return send(200, {
					object: 'list',
					data: [MODEL, ...DEMO_MODELS].map((id) => ({
						id,
						object: 'model',
						created: 0,
						owned_by: 'e2e',
					})),
				});
			if (route !== 'POST /v1/chat/completions') return send(404, openAiError(`no route ${route}`));
			const scenario = scenarioOf(body?.messages);
			const steps =
				scenarios[scenario] ?? (demo && scenario === undefined ? demoSteps(body) : undefined);
			const step = (body?.messages ?? []).filter((m) => m.role === 'tool').length;
			requests.push({ at: Date.now(), scenario, step, body });
			if (!steps)
				return send(
					400,
					openAiError(
						`no e2e scenario tagged in the user message (known: ${Object.keys(scenarios).join(', ')})`,
					),
				);
			const offered = (body.tools ?? []).map((t) => t.function?.name);
			const next = steps[step];
			if (next && !offered.includes(next.tool)) {
				return send(
					400,
					openAiError(
						`scenario ${scenario} calls tool ${next.tool}, but n8n offered ${JSON.stringify(offered)}`,
					),
				);
			}
			const message = next
				? {
						role: 'assistant',
						content: null,
						tool_calls: [
							{
								id: `call_${scenario}_${step + 1}`,
								type: 'function',
								function: { name: next.tool, arguments: JSON.stringify(next.args) },
							},
						],
					}
				: { role: 'assistant', content: finalAnswer(body.messages) };
			const finish = next ? 'tool_calls' : 'stop';
			if (body.stream) return stream(res, message, finish);
			send(200, {
				id: `chatcmpl-e2e-${requests.length}`,
				object: 'chat.completion',
				created: Math.floor(Date.now() / 1000),
				model: body.model ?? MODEL,
				choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
				usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
			});
		}),
	);
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		/** The chat requests of one scenario, in order. */
		of: (scenario) => requests.filter((r) => r.scenario === scenario),
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

export const MODEL = 'e2e-scripted-model';
/** The model names the templates ship with, answered the same way (the script ignores the name). */
const DEMO_MODELS = ['gpt-4o-mini'];

/**
 * npm start's script for an untagged conversation: "Pay supplier order INV-1001: 40 USD" → one call
 * of the first offered tool whose name says Pay, its amount and External ID arguments filled from
 * the request (under `toolParameters` when the tool is behind a human review; a number where the
 * tool's schema asks for one, as the agent template's Pay Supplier does), then the answer.
 * A request without an amount or an order gets an answer saying what to ask.
 */
export function demoSteps(body) {
	const text = (body?.messages ?? [])
		.filter((m) => m.role === 'user')
		.map((m) => contentText(m.content))
		.join(' ');
	const amount = /(\d+(?:\.\d{1,2})?)\s*(?:USD|US\$|\$)/i.exec(text)?.[1];
	const order = /\border\s+#?([A-Za-z0-9._-]*\d[A-Za-z0-9._-]*)/i.exec(text)?.[1];
	const tool = (body?.tools ?? []).map((t) => t.function).find((f) => /pay/i.test(f?.name ?? ''));
	if (!amount || !order || !tool) return [];
	const gated = Boolean(tool.parameters?.properties?.toolParameters);
	const schema = gated ? tool.parameters.properties.toolParameters : tool.parameters;
	const args = {};
	for (const [name, property] of Object.entries(schema?.properties ?? {})) {
		if (/amount/i.test(name)) args[name] = property?.type === 'number' ? Number(amount) : amount;
		else if (/external/i.test(name)) args[name] = order;
	}
	return [{ tool: tool.name, args: gated ? { toolParameters: args, hitlParameters: {} } : args }];
}

const TAG = /\[e2e:([a-z0-9-]+)\]/i;

function contentText(content) {
	if (typeof content === 'string') return content;
	if (Array.isArray(content))
		return content.map((part) => (typeof part === 'string' ? part : (part?.text ?? ''))).join('');
	return '';
}

function scenarioOf(messages = []) {
	for (const message of messages) {
		if (message.role !== 'user') continue;
		const match = TAG.exec(contentText(message.content));
		if (match) return match[1];
	}
	return undefined;
}

/** What the tools answered, in the order they were called (the final answer repeats them). */
export function toolResults(messages = []) {
	return messages.filter((m) => m.role === 'tool').map((m) => contentText(m.content));
}

/**
 * The answer to the requester: what each tool said, in its own words (its `message`, or its error),
 * as a model relays a tool's answer; a tool answer without words is quoted whole, so a template
 * that answers in raw data shows it.
 */
function finalAnswer(messages) {
	const results = toolResults(messages);
	if (!results.length)
		return 'Local scripted model (npm start): ask for a payout like "Pay supplier order INV-1001: 40 USD".';
	return results.map(wordsOf).join('\n');
}

function wordsOf(text) {
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		return text.trim();
	}
	const first = Array.isArray(json) ? json[0] : json;
	const item = first?.response && typeof first.response === 'object' ? first.response : first;
	// an error item (n8n 1.x's On Error → Continue) may also carry a message: the refusal is its error
	if (typeof item?.error === 'string' && item.error) return item.error;
	if (typeof item?.message === 'string' && item.message) return item.message;
	return `The tool answered: ${text}`;
}

function openAiError(message) {
	return { error: { message, type: 'invalid_request_error', param: null, code: null } };
}

/** The same answer as server-sent chunks (the model node may ask for a stream). */
function stream(res, message, finish) {
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	const base = {
		id: 'chatcmpl-e2e-stream',
		object: 'chat.completion.chunk',
		created: Math.floor(Date.now() / 1000),
		model: MODEL,
	};
	const delta = message.tool_calls
		? {
				role: 'assistant',
				content: null,
				tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })),
			}
		: { role: 'assistant', content: message.content };
	res.write(
		`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`,
	);
	res.write(
		`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] })}\n\n`,
	);
	res.write(
		`data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`,
	);
	res.end('data: [DONE]\n\n');
}
