// first: its popstate listener must be added before the router's
import './lib/popstate-gate.ts'
import { render } from 'preact'
import { App } from './app.tsx'
import './global.css'

render(<App />, document.getElementById('app') as HTMLElement)
