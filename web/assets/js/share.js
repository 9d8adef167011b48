// Sharing a link: the system's share sheet where the browser has one
// (phones, some desktops), else the address copied to the clipboard. It says
// which happened, so that the page can tell the reader (« Lien copié »).

/**
 * Shares `url` (this page's address if none) with its `title` and `text`.
 * Resolves to 'shared' (the share sheet took it), 'copied' (the address is
 * on the clipboard) or 'failed' (neither: the reader closed the sheet, or
 * nothing could be copied). Call it from a click: both the sheet and the
 * clipboard want a user gesture.
 * @param {{title?: string, text?: string, url?: string}} data
 * @returns {Promise<'shared' | 'copied' | 'failed'>}
 */
export async function share({ title, text, url } = {}) {
  const link = url || location.href;
  const data = { url: link };
  if (title) data.title = title;
  if (text) data.text = text;
  if (canShare(data)) {
    try {
      await navigator.share(data);
      return 'shared';
    } catch (e) {
      // Closing the sheet is the reader's answer: copying behind their back
      // would surprise them. Any other refusal (no permission, a sheet
      // already open) still leaves the clipboard.
      if (e && e.name === 'AbortError') return 'failed';
    }
  }
  return (await copy(link)) ? 'copied' : 'failed';
}

function canShare(data) {
  if (typeof navigator.share !== 'function') return false;
  if (typeof navigator.canShare !== 'function') return true;
  try {
    return navigator.canShare(data);
  } catch {
    return false;
  }
}

/** Puts `text` on the clipboard; whether it worked. */
export async function copy(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, no focus): the older way may still work.
  }
  return copyBySelection(text);
}

// Plain http on a local network has no Clipboard API; a selected, invisible
// text area and the old copy command still reach the clipboard there.
function copyBySelection(text) {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.top = '0';
  area.style.left = '0';
  area.style.opacity = '0';
  document.body.append(area);
  const focused = document.activeElement;
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  if (focused && typeof focused.focus === 'function') focused.focus();
  return ok;
}
