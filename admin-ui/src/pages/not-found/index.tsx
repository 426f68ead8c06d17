export default function NotFound () {
  return (
    <section class='panel'>
      <h1>Page not found</h1>
      <p>There is nothing at this address. <a href='/'>Back to the start</a></p>
    </section>
  )
}
