export { demoLedgerEvents, generateDemoLedger, writeDemoLedger, DEFAULT_DEMO_SEED, type DemoLedgerOptions } from './generator';
export { LedgerSummarizer, summarizeLedger, type DemoLedgerSummary } from './summary';
