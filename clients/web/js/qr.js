// A ticket's validation code drawn as a QR code on a canvas, with Debian's qrcode-generator
// (the global `qrcode`) doing the encoding. A canvas rather than the library's <img>/<svg>
// markup: the page's Content-Security-Policy allows no inline styles.

/** A canvas showing `text` as a QR code (error correction M, the smallest version that fits),
 * `scale` pixels a module with the standard four-module quiet zone, labelled for screen readers. */
export function qrCanvas(text, label, scale = 4) {
  const code = window.qrcode(0, "M");
  code.addData(text, "Byte");
  code.make();
  const modules = code.getModuleCount();
  const quiet = 4;
  const size = (modules + 2 * quiet) * scale;
  const canvas = document.createElement("canvas");
  canvas.width = size;
  canvas.height = size;
  canvas.className = "qr";
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", label);
  canvas.dataset.code = text;
  const context = canvas.getContext("2d");
  context.fillStyle = "#fff";
  context.fillRect(0, 0, size, size);
  context.fillStyle = "#000";
  for (let row = 0; row < modules; row += 1) {
    for (let column = 0; column < modules; column += 1) {
      if (code.isDark(row, column)) context.fillRect((column + quiet) * scale, (row + quiet) * scale, scale, scale);
    }
  }
  return canvas;
}
