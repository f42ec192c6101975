import { rowsChanged } from '../../platform/changes'

export const dataRowsChanged = rowsChanged('data')

export const DATA_EVENTS = [dataRowsChanged]
