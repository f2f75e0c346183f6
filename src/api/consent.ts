// Public API entry: what is checked before a run: requirements, the consent
// prompt and receipts. Re-exports only.
export { checkRequirements, findUnmetRequirements, goOsName, type RequirementContext } from '../host/load/requirements.js';
export { formatConsentText, readConsentKey, requestConsent, summarizePermissions, type ConsentOutcome, type ConsentRequest, type ConsentTextInput } from '../host/consent/request-consent.js';
export {
  listReceipts,
  readMatchingReceipt,
  receiptPath,
  revokeReceipts,
  type ConfinementSummary,
  type ConsentReceipt,
  type ConsentSummary,
  type ListedReceipt,
  type RevokeFilter,
} from '../host/consent/receipt.js';
