// What keeps a page from being read (test_readable_layout.py): a list of problems.
() => {
  const problems = [];
  const shown = el => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.opacity !== '0'
      && !el.closest('.visually-hidden') && !el.closest('details:not([open]) > :not(summary)')
      && !(el.tagName === 'INPUT' && ['checkbox', 'radio'].includes(el.type) && el.closest('label')); };
  if (document.documentElement.scrollWidth > window.innerWidth + 1)
    problems.push('scrolls sideways: ' + document.documentElement.scrollWidth + ' px');
  // A word wider than its column: the text runs out of its box.
  for (const el of document.querySelectorAll('p, li, h1, h2, h3, label, td, th, dt, dd, legend, summary')) {
    if (!shown(el) || getComputedStyle(el).overflowX !== 'visible') continue;
    if (el.scrollWidth > el.clientWidth + 2 && el.clientWidth > 0 && !el.closest('.scroll, table'))
      problems.push('text wider than its column: ' + el.tagName + ' ' + el.textContent.trim().slice(0, 40));
  }
  // Text squeezed into a column a few words wide (a sentence stacked one word a line).
  for (const el of document.querySelectorAll('p, li, h1, h2, h3, dd, legend')) {
    // (displayed, even at no width at all: a column squeezed to nothing is the worst case)
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden'
        || el.closest('table, .visually-hidden, details:not([open])')) continue;
    const em = parseFloat(getComputedStyle(el).fontSize);
    if (el.textContent.trim().length > 30 && el.getBoundingClientRect().width < 10 * em)
      problems.push('text in a column too narrow: ' + el.tagName + ' ' + el.textContent.trim().slice(0, 40));
  }
  // Controls on top of each other.
  const controls = [...document.querySelectorAll('button, a, input, select, textarea')].filter(shown);
  // (each line box of a link that wraps: its bounding box would span both lines)
  const rects = controls.map(el => [...el.getClientRects()]);
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 2
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 2;
  for (let i = 0; i < controls.length; i++) for (let j = i + 1; j < controls.length; j++) {
    if (controls[i].contains(controls[j]) || controls[j].contains(controls[i])) continue;
    if (rects[i].some(a => rects[j].some(b => meet(a, b)))) problems.push('controls overlap: ' + (controls[i].id || controls[i].textContent.trim().slice(0, 20)) + ' / ' + (controls[j].id || controls[j].textContent.trim().slice(0, 20)));
  }
  // A sticky or fixed bar over a control, with the page scrolled to its end.
  for (const bar of document.querySelectorAll('body *')) {
    const position = getComputedStyle(bar).position;
    if ((position !== 'sticky' && position !== 'fixed') || !shown(bar)) continue;
    const b = bar.getBoundingClientRect();
    for (const el of controls) {
      if (bar.contains(el) || el.contains(bar)) continue;
      const r = el.getBoundingClientRect();
      if (r.bottom > b.top + 2 && r.top < b.bottom - 2 && r.right > b.left && r.left < b.right)
        problems.push('a bar over a control: ' + (el.id || el.name || el.textContent.trim().slice(0, 20)));
    }
  }
  return problems;
}
