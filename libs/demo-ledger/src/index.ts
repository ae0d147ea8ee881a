export { demoLedgerEvents, generateDemoLedger, writeDemoLedger, DEFAULT_DEMO_SEED, type DemoLedgerOptions } from './generator';
export { finalHistory, LedgerSummarizer, summarizeLedger, type DemoLedgerSummary } from './summary';
