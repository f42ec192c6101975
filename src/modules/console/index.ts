import { defineModule } from '../module'
import { CONSOLE_ERRORS } from './errors'
import { consoleRoutes } from './routes'
import { ConsoleService } from './service'

export default defineModule({
  name: 'console',
  errors: CONSOLE_ERRORS,
  setup: (ctx) => ({ routes: () => [consoleRoutes(new ConsoleService(ctx.deps.storage))] }),
})
