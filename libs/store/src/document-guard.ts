/**
 * The guard a writer turns on outside production: it freezes what it shares with the store, so a
 * change to a shared document throws instead of corrupting the store. Not in the barrel: only a
 * writer's guard needs it (`@ledger-api/store/document-guard`).
 */
export { freezeDocument } from './embedded/copy-document';
