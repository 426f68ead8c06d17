import { render } from 'preact'
import { App } from './app.tsx'
import './global.css'

render(<App />, document.getElementById('app') as HTMLElement)
