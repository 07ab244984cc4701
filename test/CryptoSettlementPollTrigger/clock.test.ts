import type { IDataObject } from 'n8n-workflow';
import { LISTING_LAG_MS, OVERLAP_MS } from '../../nodes/CryptoSettlementPollTrigger/cursor';
import { Emitted } from '../helpers/poll/exactly-once';
import { delivery, startListService, trade, type ListService } from '../helpers/poll/list-service';
import { Poller } from '../helpers/poll/poll-harness';

/**
 * Issue #25, point 4: the service's clock is not n8n's. Date ranges of stored deliveries and every
 * position come from the service's clock (its Date header, its records), so a service 15 minutes
 * behind or ahead of n8n loses nothing. Also: a backlog of stored deliveries read by date range.
 */
const minute = 60_000;

let service: ListService;
let created = 0;
beforeEach(async () => {
	service = await startListService();
	created = 0;
});
afterEach(async () => await service.close());

const credentials = () => ({
	appId: 'app-local',
	appSecret: 'secret-local-1',
	environment: 'sandbox',
	baseUrl: service.url,
	pin: '',
});
const deliveryEvents = (records: IDataObject[]) =>
	records.map((record) => `trade.completed ${String((record.payload as IDataObject).id)}`);

/** `count` stored deliveries since the last ones, up to now on the service's clock (`skew` from n8n's). */
function deliveries(count: number, skew: number): IDataObject[] {
	const last = service.records.deliveries.at(-1);
	service.clock = Date.now() + skew + 1000;
	const from = last ? Date.parse(String(last.createdAt)) : (service.clock as number) - minute;
	const added = Array.from({ length: count }, (_, i) =>
		delivery(++created, from + ((i + 1) * ((service.clock as number) - from)) / (count + 1)),
	);
	service.records.deliveries.push(...added);
	return added;
}

describe.each([
	{ name: '15 minutes behind', skew: -15 * minute },
	{ name: '15 minutes ahead of', skew: 15 * minute },
])('a service clock $name n8n', ({ skew }) => {
	test('stored deliveries: each emitted once; the date range starts on the service clock', async () => {
		deliveries(40, skew);
		const poller = await Poller.create({ source: 'webhookEvents', events: ['*'] }, credentials());
		expect((await poller.poll()).items).toBeNull();
		const emitted = new Emitted();
		const fresh: IDataObject[] = [];
		for (let poll = 0; poll < 5; poll++) {
			const newestBefore = Math.max(
				...service.records.deliveries.map((record) => Date.parse(String(record.createdAt))),
			);
			fresh.push(...deliveries(25, skew));
			service.clearRequests();
			emitted.add(await poller.poll());
			const [request] = service.requests;
			// No later than the answer's time (whole seconds in its Date header) less the listing lag.
			expect(Date.parse(String(request.query.get('startDate')))).toBeLessThanOrEqual(
				newestBefore - OVERLAP_MS,
			);
			expect(Date.parse(String(request.query.get('startDate')))).toBeGreaterThanOrEqual(
				newestBefore - OVERLAP_MS - LISTING_LAG_MS - 1000,
			);
		}
		emitted.expectExactly(deliveryEvents(fresh));
	});

	test('records: each emitted once', async () => {
		service.clock = Date.now() + skew;
		service.records.trades.push(trade(1, (service.clock as number) - minute));
		const poller = await Poller.create({ source: 'records', events: ['*'] }, credentials());
		await poller.poll();
		const emitted = new Emitted();
		const fresh: IDataObject[] = [];
		for (let poll = 0; poll < 4; poll++) {
			service.clock = Date.now() + skew;
			const added = trade(++created + 1, (service.clock as number) - 1000);
			service.records.trades.push(added);
			fresh.push(added);
			emitted.add(await poller.poll());
		}
		emitted.expectExactly(fresh.map((record) => `trade.completed ${String(record.id)}`));
	});
});

test('a backlog of stored deliveries beyond Max Pages per Poll, with more arriving: the gap is read by date range, each once', async () => {
	deliveries(100, 0);
	const poller = await Poller.create(
		{ source: 'webhookEvents', events: ['*'], options: { maxPagesPerPoll: 2 } },
		credentials(),
	);
	await poller.poll();
	const fresh = deliveries(2500, 0);
	const emitted = new Emitted();
	for (let poll = 0; poll < 12; poll++) {
		if (poll < 5) fresh.push(...deliveries(150, 0));
		service.clearRequests();
		emitted.add(await poller.poll());
		if (poll === 1) {
			// Reading the gap: its date range ends where the last walk stopped.
			expect(service.requests[0].query.get('endDate')).not.toBeNull();
		}
	}
	emitted.expectExactly(deliveryEvents(fresh));
});
