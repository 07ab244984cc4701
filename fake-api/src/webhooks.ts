/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console */
/** The job queue behind lifecycle transitions and webhook deliveries, and the HTTP POST itself. */
import http from 'node:http';
import https from 'node:https';

export interface Job {
	/** lifecycle: a state transition; delivery: a first webhook attempt; retry: a later attempt. */
	kind: 'lifecycle' | 'delivery' | 'retry';
	/** Service time (the service's clock, clock.ts) at which the job is due. */
	dueAt: number;
	run: () => Promise<void> | void;
}

interface QueuedJob extends Job {
	seq: number;
	/** Settle pass during which the job was queued (0 = outside any settle). */
	pass: number;
}

/**
 * Runs jobs when they are due in service time (one timer for the earliest), one at a time so
 * webhooks of one record go out in order. The service's clock runs at the speed of real time
 * between its moves, so the timer waits the difference; when the clock is moved, `runDue()` runs
 * what became due. `settle()` runs them now without waiting for their time.
 */
export class Scheduler {
	/** `now`: the service's clock (default Date.now). */
	constructor(private readonly now: () => number = Date.now) {}

	private jobs: QueuedJob[] = [];
	private timer: NodeJS.Timeout | undefined;
	private chain: Promise<void> = Promise.resolve();
	private seq = 0;
	private pass = 0;
	private settling = false;
	private closed = false;

	get pending(): number {
		return this.jobs.length;
	}

	add(job: Job): void {
		if (this.closed) return;
		this.jobs.push({ ...job, seq: ++this.seq, pass: this.settling ? this.pass : 0 });
		this.arm();
	}

	/**
	 * Runs now every queued transition and first delivery (and what they queue), and the retries
	 * that are due. With `forceRetries`, also the retries not yet due, except those queued by this call.
	 */
	settle(forceRetries = false): Promise<void> {
		return this.exclusive(async () => {
			this.settling = true;
			const pass = ++this.pass;
			try {
				for (;;) {
					const now = this.now();
					const job = this.take(
						(candidate) =>
							candidate.kind !== 'retry' ||
							candidate.dueAt <= now ||
							(forceRetries && candidate.pass !== pass),
					);
					if (!job) break;
					await this.execute(job);
				}
			} finally {
				this.settling = false;
			}
		});
	}

	/**
	 * Moves the service's clock to `target` through every job due by then, earliest first: the clock
	 * stands at each one's due time while it runs (`standAt`, never back), so a transition, a delivery
	 * and the retries it queues are dated when they would have happened had the service run on.
	 */
	runUntil(target: number, standAt: (at: number) => void): Promise<void> {
		return this.exclusive(async () => {
			for (;;) {
				const job = this.take((candidate) => candidate.dueAt <= target);
				if (!job) break;
				standAt(job.dueAt);
				await this.execute(job);
			}
			standAt(target);
		});
	}

	private async runDueJobs(): Promise<void> {
		for (;;) {
			const now = this.now();
			const job = this.take((candidate) => candidate.dueAt <= now);
			if (!job) break;
			await this.execute(job);
		}
	}

	async close(): Promise<void> {
		this.closed = true;
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		this.jobs = [];
		await this.chain;
	}

	private exclusive(work: () => Promise<void>): Promise<void> {
		const next = this.chain.then(work);
		this.chain = next.catch(() => undefined);
		return next.finally(() => this.arm());
	}

	private take(accept: (job: QueuedJob) => boolean): QueuedJob | undefined {
		let best: QueuedJob | undefined;
		for (const job of this.jobs) {
			if (!accept(job)) continue;
			if (!best || job.dueAt < best.dueAt || (job.dueAt === best.dueAt && job.seq < best.seq))
				best = job;
		}
		if (best) this.jobs = this.jobs.filter((job) => job !== best);
		return best;
	}

	private async execute(job: QueuedJob): Promise<void> {
		try {
			await job.run();
		} catch (error) {
			console.error('[sandbox] job failed:', error);
		}
	}

	private arm(): void {
		if (this.closed) return;
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		if (!this.jobs.length) return;
		const earliest = Math.min(...this.jobs.map((job) => job.dueAt));
		this.timer = setTimeout(
			() => {
				this.timer = undefined;
				this.exclusive(() => this.runDueJobs()).catch((error) =>
					console.error('[sandbox] scheduler failed:', error),
				);
			},
			Math.max(0, Math.min(earliest - this.now(), 2 ** 31 - 1)),
		);
		this.timer.unref();
	}
}

export interface DeliveryResult {
	status: number | null;
	body: string;
}

/** POSTs JSON; never throws (a network error is status null with the error text). */
export function postJson(
	url: string,
	payload: unknown,
	headers: Record<string, string>,
	timeoutMs: number,
): Promise<DeliveryResult> {
	return new Promise((resolve) => {
		let target: URL;
		try {
			target = new URL(url);
		} catch {
			resolve({ status: null, body: `invalid webhook url: ${url}` });
			return;
		}
		const data = Buffer.from(JSON.stringify(payload));
		const client = target.protocol === 'https:' ? https : http;
		const request = client.request(
			target,
			{
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'content-length': String(data.length),
					'user-agent': 'crypto-settlement-sandbox/1.0',
					...headers,
				},
				timeout: timeoutMs,
			},
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () =>
					resolve({
						status: response.statusCode ?? null,
						body: Buffer.concat(chunks).toString('utf8').slice(0, 2000),
					}),
				);
				response.on('error', (error) => resolve({ status: null, body: error.message }));
			},
		);
		request.on('timeout', () => request.destroy(new Error(`timed out after ${timeoutMs} ms`)));
		request.on('error', (error) => resolve({ status: null, body: error.message }));
		request.end(data);
	});
}
