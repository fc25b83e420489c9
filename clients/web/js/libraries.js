// Debian's JavaScript libraries, loaded by the pages that use them rather than by every page:
// Leaflet for maps, Chart.js for charts, qrcode-generator for tickets. The board, the first page
// most people open, needs none of them (on a slow connection they were most of a first visit).
// Each is fetched once, as a classic script from this origin (the page's policy allows nothing
// else); the service worker keeps them for use offline like the rest of the app.

const loading = new Map();

function script(src) {
  if (!loading.has(src)) {
    loading.set(src, new Promise((resolve, reject) => {
      const element = document.createElement("script");
      element.src = src;
      element.onload = resolve;
      element.onerror = () => { loading.delete(src); reject(new Error(`${src} did not load`)); };
      document.head.append(element);
    }));
  }
  return loading.get(src);
}

function stylesheet(href) {
  if (!loading.has(href)) {
    loading.set(href, new Promise((resolve, reject) => {
      const element = document.createElement("link");
      element.rel = "stylesheet";
      element.href = href;
      element.onload = resolve;
      element.onerror = () => { loading.delete(href); reject(new Error(`${href} did not load`)); };
      // Before the app's own stylesheet, which overrides some of Leaflet's rules.
      document.head.insertBefore(element, document.querySelector('link[href="/app/css/app.css"]'));
    }));
  }
  return loading.get(href);
}

/** Leaflet (`window.L`) and its stylesheet. */
export const leaflet = () => Promise.all([stylesheet("/lib/leaflet/leaflet.css"), script("/lib/leaflet/leaflet.min.js")]);
/** Chart.js (`window.Chart`). */
export const chartJs = () => script("/lib/chart.js/chart.min.js");
/** qrcode-generator (`window.qrcode`). */
export const qrcode = () => script("/lib/qrcode-generator/qrcode.js");
