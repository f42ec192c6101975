import { rowsChanged } from '../../platform/changes'

export const userdataRowsChanged = rowsChanged('userdata')

export const USERDATA_EVENTS = [userdataRowsChanged]
