import { Command, CommanderError, Option } from 'commander'
import { createContext, explain, type Context, type GlobalOptions } from './context.ts'
import { createOutput } from './output.ts'
import { login, logout, whoami } from './commands/auth.ts'
import { checkApp, listApps, pullApp, pushApp, submitApp } from './commands/apps.ts'
import { DEFAULT_PORT, initApp } from './commands/init.ts'
import { listen } from './commands/listen.ts'
import { logs, trigger } from './commands/events.ts'

export const VERSION = '0.1.0'
/** Exit codes: 0 done, 1 failed (network, platform, refused), 2 usage (unknown command or flag). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const

/** The `app-platform` command tree; every command takes --json and --server. */
export function buildProgram (): Command {
  const program = new Command('app-platform')
    .description('Develop App Platform apps from your terminal: log in, keep the manifest in a file, relay webhooks and checkout hooks to your machine.')
    .version(VERSION)
    .addOption(new Option('--server <url>', 'the platform (default: $APP_PLATFORM_URL, else http://localhost:3000)'))
    .option('--json', 'print results as JSON')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text) })

  /** Runs a command with the context of the global options; failures become one message and exit code 1. */
  const run = <A extends unknown[]>(action: (ctx: Context, ...args: A) => Promise<void>) => async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command
    const ctx = createContext(command.optsWithGlobals<GlobalOptions>())
    await action(ctx, ...(args.slice(0, -1) as A))
  }
  const dirOption = new Option('--dir <dir>', 'the app\'s folder, with app-platform.json').default('.')

  program.command('login').description('Log in with your browser (device authorization); the token lasts 30 days')
    .action(run(login))
  program.command('logout').description('Revoke this machine\'s token and forget it').action(run(logout))
  program.command('whoami').description('The developer this machine is logged in as').action(run(whoami))

  const apps = program.command('apps').description('Your apps')
  apps.command('list').description('List your apps').action(run(listApps))

  const app = program.command('app').description('One app: create, pull and push its manifest, check, submit')
  app.command('init <dir>').description('Create a standalone app on the platform\'s SDK, registered as a draft; credentials in <dir>/.env')
    .option('--name <name>', 'the app\'s name (default: the folder\'s name)')
    .option('--port <port>', 'the port the app listens on', String(DEFAULT_PORT))
    .option('--app-url <url>', 'where the app will run (default: http://localhost:<port>)')
    .option('--scopes <scopes>', 'the scopes it needs, comma-separated (asked at a terminal when not given)')
    .action(run((ctx, dir: string, options: { name?: string, appUrl?: string, port?: string, scopes?: string }) => initApp(ctx, dir, options)))
  app.command('pull').description('Write the platform\'s settings and manifest of the app to app-platform.json')
    .option('--app <id>', 'the app (default: the one app-platform.json names)').addOption(dirOption)
    .action(run((ctx, options: { app?: string, dir: string }) => pullApp(ctx, options)))
  app.command('push').description('Save app-platform.json\'s settings and manifest on the platform, after showing what changes')
    .option('-y, --yes', 'do not ask').addOption(dirOption)
    .action(run((ctx, options: { dir: string, yes?: boolean }) => pushApp(ctx, { dir: options.dir, yes: options.yes === true })))
  app.command('submit').description('Submit the app for review')
    .option('--app <id>', 'the app (default: the one app-platform.json names)').addOption(dirOption)
    .action(run((ctx, options: { app?: string, dir: string }) => submitApp(ctx, options)))
  app.command('checks').description('Run the platform\'s app checks against your sandbox install')
    .option('--app <id>', 'the app (default: the one app-platform.json names)').addOption(dirOption)
    .action(run((ctx, options: { app?: string, dir: string }) => checkApp(ctx, options)))

  program.command('listen').description('Relay your sandbox install\'s webhook deliveries and hook calls to a local URL, no tunnel needed')
    .option('--app <id>', 'the app (default: the one app-platform.json names)').addOption(dirOption)
    .requiredOption('--forward-to <url>', 'your local app\'s origin, e.g. http://localhost:8787: each call goes to it plus the path production would call')
    .action(run((ctx, options: { app?: string, dir: string, forwardTo: string }) => listen(ctx, options)))

  program.command('trigger <event>').description('Emit a sample event of the catalogue (e.g. order.created) on your sandbox business')
    .option('--app <id>', 'the app (default: the one app-platform.json names)').addOption(dirOption)
    .action(run((ctx, event: string, options: { app?: string, dir: string }) => trigger(ctx, event, options)))
  program.command('logs').description('Tail the console: delivery attempts and hook calls as they happen')
    .option('--app <id>', 'the app (default: the one app-platform.json names)').addOption(dirOption)
    .option('--since <duration>', 'first print the deliveries and hook calls of this last while (30s, 15m, 2h, 1d)')
    .action(run((ctx, options: { app?: string, dir: string, since?: string }) => logs(ctx, options)))

  return program
}

/** Parses and runs; resolves to the exit code. Usage problems print the usage and give 2. */
export async function main (argv: string[]): Promise<number> {
  const program = buildProgram()
  // a command without a subcommand (`app-platform app`) shows its help and is a usage error
  for (const command of [program, ...program.commands]) {
    if (command.commands.length > 0) command.exitOverride().showHelpAfterError()
  }
  try {
    await program.parseAsync(argv)
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok
      return EXIT.usage
    }
    const json = argv.includes('--json')
    const failure = explain(error)
    const out = createOutput(json)
    if (json) {
      process.stdout.write(`${JSON.stringify({ error: { message: failure.message, statusCode: failure.statusCode, problems: failure.problems } })}\n`)
    } else {
      out.note(out.red(`Error: ${failure.message}`))
      for (const problem of failure.problems) out.note(`  ${problem.path === '' ? '(manifest)' : problem.path}: ${problem.message}`)
      if (failure.problems.length > 0) out.note('Nothing was changed.')
    }
    return failure.exitCode
  }
}
