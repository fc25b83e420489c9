// Charts with Debian's Chart.js (the global `Chart`): one place for the app's colours, and each
// chart's figures also written out as a table for screen readers (a canvas says nothing).

export const colours = {
  moqa: "#1f6feb",        // MOQA's own boards: the blue line
  reference: "#d1242f",   // the reference station: the red line
  palette: ["#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#bf3989", "#57606a"],
  /** A subscription category's own colour (SubscribeME colours each category), the same on its
   * cards (app.css, `[data-category]`) and in the charts: app.css's `--SUBSCRIPTION_CATEGORY_…`. */
  category: (category) => getComputedStyle(document.documentElement).getPropertyValue(`--${category}`).trim() || "#57606a",
};

/** A Chart.js chart in `canvas`; the previous chart on it, if any, is destroyed first. */
export function chart(canvas, config) {
  const existing = window.Chart.getChart(canvas);
  if (existing) existing.destroy();
  return new window.Chart(canvas, {
    ...config,
    options: { responsive: true, maintainAspectRatio: false, animation: false, ...config.options },
  });
}
