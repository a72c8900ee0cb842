import "#web/styles.css";

// When the server drew the page (decision 0020), the browser shows it first and evaluates the app's code
// after: evaluated before the first paint, the code would hold the page back for nothing. (A hidden tab
// gets no frames, so the wait is bounded.)
if (document.getElementById("root")?.hasAttribute("data-ssr")) {
  await new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 200);
  });
}
await import("#web/boot");
