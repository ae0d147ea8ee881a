export { generateDemoLedger, writeDemoLedger, DEFAULT_DEMO_SEED, type DemoLedgerOptions } from './generator';
export { summarizeLedger, type DemoLedgerSummary } from './summary';
