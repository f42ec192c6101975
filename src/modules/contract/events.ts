import { defineAuditActions } from '../../platform/events'
import { rowsChanged } from '../../platform/changes'

export const contractRowsChanged = rowsChanged('contract')

export const CONTRACT_EVENTS = [contractRowsChanged]

/** The audit actions contract records (GET /audit/events). */
export const CONTRACT_AUDIT = defineAuditActions('contract', {
  'contract.contract.created': 'A contract (a run-time table) was defined',
  'contract.contract.altered': 'A contract’s columns or access changed',
  'contract.contract.deleted': 'A contract and its rows were deleted',
  'contract.row.deleted': 'An admin deleted a row of a contract',
})
