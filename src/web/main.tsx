import "#web/styles.css";

const root = document.getElementById("root");
const drawn = root?.hasAttribute("data-ssr") ?? false;
// The server drew this page (decision 0020). React handles a tap that comes while it is taking the page
// over (it hydrates the part tapped first, then replays the tap), but only from the moment `hydrateRoot`
// is called: before that, while the app's code loads, nothing listens. A tap on a button then is held
// and replayed once React listens, rather than lost.
const held: HTMLButtonElement[] = [];
const hold = (event: MouseEvent) => {
  const button = event.target instanceof Element ? event.target.closest("button") : null;
  if (!button) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  held.push(button);
};
if (drawn) {
  document.addEventListener("click", hold, true);
  // The browser shows the page first and evaluates the app's code after: evaluated before the first
  // paint, the code would hold the page back for nothing. (A hidden tab gets no frames, so the wait is
  // bounded.)
  await new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 200);
  });
}
await import("#web/boot");
if (drawn) {
  document.removeEventListener("click", hold, true);
  for (const button of held.splice(0)) if (button.isConnected) button.click();
}
