import "#web/styles.css";

const root = document.getElementById("root");
if (root?.hasAttribute("data-ssr")) {
  // The server drew this page (decision 0020); until the app has taken it over, its buttons have no
  // handlers. A tap on one then is held and replayed once they have, rather than lost.
  const held: HTMLButtonElement[] = [];
  const hold = (event: MouseEvent) => {
    const button = event.target instanceof Element ? event.target.closest("button") : null;
    if (!button || !root.hasAttribute("data-ssr")) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    held.push(button);
  };
  document.addEventListener("click", hold, true);
  new MutationObserver((_, observer) => {
    if (root.hasAttribute("data-ssr")) return;
    observer.disconnect();
    document.removeEventListener("click", hold, true);
    for (const button of held.splice(0)) if (button.isConnected) button.click();
  }).observe(root, { attributes: true, attributeFilter: ["data-ssr"] });

  // The browser shows the page first and evaluates the app's code after: evaluated before the first
  // paint, the code would hold the page back for nothing. (A hidden tab gets no frames, so the wait is
  // bounded.)
  await new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 200);
  });
}
await import("#web/boot");
