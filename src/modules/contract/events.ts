import { rowsChanged } from '../../platform/changes'

export const contractRowsChanged = rowsChanged('contract')

export const CONTRACT_EVENTS = [contractRowsChanged]
