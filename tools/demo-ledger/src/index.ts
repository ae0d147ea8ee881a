export { demoLedgerEvents, generateDemoLedger, writeDemoLedger, DEFAULT_DEMO_SEED, type DemoLedgerOptions } from './generator';
export { finalHistory, revertsOfNewest, LedgerSummarizer, summarizeLedger, type DemoLedgerSummary } from './summary';
