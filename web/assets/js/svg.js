// SVG elements and the shared paint of the boards: oak, grain, hollows,
// lacquered balls and river pebbles. The paint is defined once per page.

const NS = 'http://www.w3.org/2000/svg';

export function svgEl(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

export const PEBBLES = 5;

const DEFS = `<defs>
<linearGradient id="oak" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="#dcbe92"/><stop offset=".45" stop-color="#d3b083"/><stop offset="1" stop-color="#c49a6c"/></linearGradient>
<linearGradient id="oak-dark" x1="0" y1="0" x2="0" y2="1">
<stop offset="0" stop-color="#c9a373"/><stop offset="1" stop-color="#b88d5d"/></linearGradient>
<pattern id="grain" width="240" height="64" patternUnits="userSpaceOnUse">
<path d="M0 9c40-6 80 6 120 0s80-6 120 0M0 27c50 5 90-7 130-1s70 6 110-1M0 44c30-4 70 5 120 1s90-6 120-1M0 58c60 3 100-4 140 0s70 3 100-1" fill="none" stroke="#8a5f33" stroke-opacity=".16" stroke-width="1.4"/>
<path d="M0 18c45-3 85 4 125 0s75-4 115 1M0 36c40 4 90-5 120-1s80 5 120 0" fill="none" stroke="#fff3dc" stroke-opacity=".18" stroke-width="1.1"/></pattern>
<radialGradient id="hollow" cx=".5" cy=".42" r=".62">
<stop offset="0" stop-color="#c29b6b"/><stop offset=".75" stop-color="#b58c5c"/><stop offset="1" stop-color="#a27748"/></radialGradient>
<filter id="inset" x="-10%" y="-10%" width="120%" height="120%">
<feFlood flood-color="#3b2412" flood-opacity=".55"/><feComposite in2="SourceAlpha" operator="out"/>
<feGaussianBlur stdDeviation="3.5"/><feOffset dy="3.5" result="s"/><feComposite in="s" in2="SourceAlpha" operator="in"/>
<feMerge><feMergeNode in="SourceGraphic"/><feMergeNode/></feMerge></filter>
<radialGradient id="ball-red" cx=".5" cy=".5" r=".55" fx=".36" fy=".3">
<stop offset="0" stop-color="#f6a196"/><stop offset=".18" stop-color="#d8443a"/><stop offset=".65" stop-color="#b3261e"/><stop offset="1" stop-color="#6a130e"/></radialGradient>
<radialGradient id="ball-black" cx=".5" cy=".5" r=".55" fx=".4" fy=".34">
<stop offset="0" stop-color="#b0a59b"/><stop offset=".1" stop-color="#4a403a"/><stop offset=".6" stop-color="#1f1a17"/><stop offset="1" stop-color="#050404"/></radialGradient>
${['#dcd5c5', '#b9b2a3', '#958e82', '#ece2cb', '#a79c88']
  .map((c, i) => `<radialGradient id="peb${i}" cx=".5" cy=".5" r=".6" fx=".35" fy=".3"><stop offset="0" stop-color="#fffaf0"/><stop offset=".35" stop-color="${c}"/><stop offset="1" stop-color="${shade(c)}"/></radialGradient>`)
  .join('')}
</defs>`;

function shade(hex) {
  const n = parseInt(hex.slice(1), 16);
  const f = (v) => Math.round(v * 0.62).toString(16).padStart(2, '0');
  return `#${f(n >> 16)}${f((n >> 8) & 255)}${f(n & 255)}`;
}

let ready = false;
export function ensureDefs() {
  if (ready) return;
  ready = true;
  const s = svgEl('svg', { width: 0, height: 0, 'aria-hidden': 'true', focusable: 'false', class: 'svg-defs' });
  s.innerHTML = DEFS;
  document.body.prepend(s);
}

// A ball drawn at the origin: body, then a soft rim so that red and black also
// differ by outline, not only by colour.
export function ball(parent, side, r, attrs = {}) {
  return svgEl('circle', { r, class: `ball ${side}`, ...attrs }, parent);
}
