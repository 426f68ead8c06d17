import { useEffect, useRef } from 'preact/hooks'
import UPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import styles from './style.module.css'

export interface ChartSeries { label: string, color: string, values: number[] }

const DAY_LABEL = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' })
const MONTH_LABEL = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' })
const LABELS = { day: DAY_LABEL, month: MONTH_LABEL }
const toSeconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000

/**
 * A daily (or monthly) time series drawn with uPlot: axes, a legend that shows the values under the cursor, and
 * the same numbers as a table (for screen readers and keyboards, and to copy them). The chart follows
 * its container's width.
 */
export function TimeChart ({ title, dates, series, testId, unit = 'day', format = String }: {
  title: string
  /** YYYY-MM-DD, one per point: a day's, or (unit "month") the first day of a month. */
  dates: string[]
  series: ChartSeries[]
  testId?: string
  unit?: 'day' | 'month'
  /** A value as shown in the legend and the table (money, say); the axis keeps plain numbers. */
  format?: (value: number) => string
}) {
  const box = useRef<HTMLDivElement>(null)
  const dayLabel = (seconds: number) => LABELS[unit].format(new Date(seconds * 1000))
  useEffect(() => {
    const element = box.current
    if (element === null) return
    const width = () => Math.max(260, Math.floor(element.clientWidth))
    const options: UPlot.Options = {
      width: width(),
      height: 220,
      // a month's label ("Nov 2026") is wider than half a step: room for the last one
      ...(unit === 'month' ? { padding: [12, 28, 0, 0] as UPlot.Padding } : {}),
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.15))] } },
      axes: [
        { values: (_u, splits) => splits.map(dayLabel), stroke: '#5d6778', grid: { stroke: '#eef0f3' } },
        { stroke: '#5d6778', grid: { stroke: '#eef0f3' }, size: 44, values: (_u, splits) => splits.map((v) => Number.isInteger(v) ? String(v) : '') }
      ],
      series: [
        { label: unit === 'day' ? 'Day' : 'Month', value: (_u, v) => v === null ? '—' : dayLabel(v) },
        ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, fill: `${s.color}1a`, points: { show: dates.length <= 31, size: 5 }, value: (_u: UPlot, v: number | null) => v === null ? '—' : format(v) }))
      ],
      cursor: { drag: { x: false, y: false } },
      legend: { live: true }
    }
    const data: UPlot.AlignedData = [dates.map(toSeconds), ...series.map((s) => s.values)]
    const chart = new UPlot(options, data, element)
    const resize = new ResizeObserver(() => chart.setSize({ width: width(), height: 220 }))
    resize.observe(element)
    return () => {
      resize.disconnect()
      chart.destroy()
    }
  }, [unit, dates.join(), series.map((s) => `${s.label}:${s.values.join()}`).join('|')])

  const totals = series.map((s) => s.values.reduce((a, b) => a + b, 0))
  return (
    <figure class={styles.figure} data-testid={testId}>
      <figcaption class={styles.caption}>{title}</figcaption>
      <div ref={box} class={styles.chart} role='img' aria-label={`${title}: ${series.map((s, i) => `${s.label} ${format(totals[i])} in total`).join(', ')}`} />
      <details class={styles.table}>
        <summary>Show as a table</summary>
        <div class={styles.scroll}>
          <table>
            <caption class={styles.srOnly}>{title}, one row per {unit}</caption>
            <thead><tr><th scope='col'>{unit === 'day' ? 'Day' : 'Month'}</th>{series.map((s) => <th key={s.label} scope='col'>{s.label}</th>)}</tr></thead>
            <tbody>
              {dates.map((date, row) => (
                <tr key={date}><th scope='row'>{dayLabel(toSeconds(date))}</th>{series.map((s) => <td key={s.label}>{format(s.values[row])}</td>)}</tr>
              ))}
            </tbody>
            <tfoot><tr><th scope='row'>Total</th>{totals.map((total, i) => <td key={i}>{format(total)}</td>)}</tr></tfoot>
          </table>
        </div>
      </details>
    </figure>
  )
}
