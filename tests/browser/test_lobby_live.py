"""The lobby's list follows the room live: a new table appears and is announced, a changed row
is patched, and the keyboard focus stays where the player put it."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser import sala

# Every text given to the lobby's polite region (sala.record_speech covers the table's).
RECORD_LOBBY_SPEECH = """
window.__lobbySpoken = [];
document.addEventListener("DOMContentLoaded", () => {
  const region = document.getElementById("lobby-polite");
  if (!region) return;
  new MutationObserver(() => {
    if (region.textContent) window.__lobbySpoken.push(region.textContent);
  }).observe(region, { childList: true, characterData: true, subtree: true });
});
"""


def test_a_new_table_appears_and_is_announced_while_focus_stays_put(
        new_page: Callable[..., Page], base_url: str) -> None:
    host = new_page()
    sala.guest(host, base_url, "Max")
    first = sala.create_table(host)

    player = new_page()
    player.add_init_script(RECORD_LOBBY_SPEECH)
    sala.guest(player, base_url, "Lia")
    link = f"Table {first}: classic"
    sala.tab_to_name(player, link)

    host.goto(base_url + "/")
    second = sala.create_table(host)
    expect(player.get_by_role("link", name=f"Table {second}: classic")).to_be_visible()
    player.wait_for_function(
        "(text) => window.__lobbySpoken.includes(text)",
        arg=f"New table {second}: classic, free seats: 4.")
    assert sala.active(player)["name"] == link

    # A change to the focused table's row patches it around the focus.
    host.goto(f"{base_url}/table/{first}")
    sala.connected(host)
    sala.click_sit(host, "South")
    row = player.locator(f"#table-row-{first}")
    expect(row).to_contain_text("South: Max")
    assert sala.active(player)["name"] == link
