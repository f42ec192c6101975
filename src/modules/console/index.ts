import { defineModule } from '../module'
import { consoleRoutes } from './routes'

export default defineModule({
  name: 'console',
  setup: () => ({ routes: () => [consoleRoutes()] }),
})
