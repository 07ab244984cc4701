// Expected failures are part of the tests (refused items, 401s, 5xx): n8n-core logs each of them
// through its own logger (winston, to the console), which made `npm test` print hundreds of
// console blocks and stacks that look like failures. Its logger is silenced here, before n8n-core
// loads; the tests assert those errors themselves. Assertion failures, uncaught errors and a
// test's own console output are still printed. N8N_LOG_LEVEL=debug npm test shows the logs again.
process.env.N8N_LOG_LEVEL = process.env.N8N_LOG_LEVEL || 'silent';
