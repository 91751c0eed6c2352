// What the service's pages share, inlined where a page says COMMON (after its WORDS): their
// words, the font their Chinese waits for, and the language switch.

/// The words of `key` in the page's language, each `{name}` slot filled from `vars`.
function t(key, vars) {
  let text = WORDS[key];
  if (text === undefined) { console.warn("no words for", key); text = key; }
  for (const [k, v] of Object.entries(vars || {})) text = text.split(`{${k}}`).join(v);
  return text;
}
// Chinese words are written once the page's font has come (text laid out before it would
// keep the missing glyphs' boxes on a machine without CJK fonts).
const fontReady = document.fonts.load("16px 'Anqi Serif'", "暗棋").catch(() => {});
/// Writes the page's static words (`data-t`, `data-t-title`, `data-t-placeholder`) and its
/// title (`titleKey`).
function applyWords(titleKey) {
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of document.querySelectorAll("[data-t-title]")) el.title = t(el.dataset.tTitle);
  for (const el of document.querySelectorAll("[data-t-placeholder]")) el.placeholder = t(el.dataset.tPlaceholder);
  document.title = t(titleKey);
}
function gameWord(game) { return WORDS[`game.${game}`] ? t(`game.${game}`) : game; }
function endingWord(reason) { return WORDS[`ending.${reason}`] ? t(`ending.${reason}`) : String(reason).replace(/_/g, " "); }
// The language switch (`<select id="lang">`): a cookie the service reads, then the page again.
(() => {
  const select = document.getElementById("lang");
  select.value = document.documentElement.lang;
  select.onchange = () => {
    document.cookie = `anqi_lang=${select.value}; path=/; max-age=31536000; SameSite=Lax`;
    const u = new URL(location.href); u.searchParams.delete("lang"); location.replace(u.href);
  };
})();
