import styles from './style.module.css'

/** The app's icon, or its initial on the accent colour when it has none. */
export function AppIcon ({ name, iconUrl, size = 'medium' }: { name: string, iconUrl: string | null, size?: 'small' | 'medium' | 'large' }) {
  return iconUrl !== null
    ? <img class={`${styles.icon} ${styles[size]}`} src={iconUrl} alt='' />
    : <div class={`${styles.icon} ${styles[size]}`} aria-hidden='true'>{name.trim().slice(0, 1).toUpperCase()}</div>
}
