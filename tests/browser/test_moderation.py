"""Help and report, and the moderators' queue, in a real browser and by keyboard alone:
F4 at a table opens the dialog (focus in, Escape out, focus back), a report is filed without
leaving the table, a moderator works the queue, the warned player hears it at once; axe finds
no violation on the dialog, the help page or the queue.  With self-voicing on, the report's
answer (put in by a script after the page loaded) is said once, and so is a warning told at
the next page, whose "I understand" sits outside its live region."""

from __future__ import annotations

import re
import secrets
import subprocess
import sys
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser import sala
from tests.browser.live import LiveServer
from tests.browser.test_axe import Audit
from tests.browser.test_phone import RECORD_VOICE, said
from tests.browser.test_tournament import register


def test_a_report_by_f4_at_the_table_and_a_moderator_working_the_queue_by_keyboard(
        new_page: Callable[..., Page], base_url: str, live_server: LiveServer) -> None:
    audit = Audit()
    tag = secrets.token_hex(3)
    rude, reporter, moderator = f"Rude{tag}", f"Rep{tag}", f"Mod{tag}"

    # A player at a table says something unkind in its chat.
    offender = new_page()
    register(offender, base_url, rude)
    table_id = sala.create_table(offender)
    sala.click_sit(offender, "North")
    offender.fill("#table-chat-text", "you all play like beginners")
    offender.press("#table-chat-text", "Enter")
    expect(offender.locator("#table-chat")).to_contain_text("you all play like beginners")

    # Another player, watching the table, presses F4: the dialog opens on its heading.  This
    # one has the page's own voice on (its speech recorded): the dialog's answers are said.
    page = new_page()
    page.add_init_script(RECORD_VOICE)
    register(page, base_url, reporter)
    page.request.post(base_url + "/preferences", headers={"origin": base_url}, form={
        "settings": "1", "pace": "0", "volume": "50", "speak": "plays", "voice": "on",
        "voice_rate": "100", "next": "/"})
    page.goto(f"{base_url}/table/{table_id}")
    sala.connected(page)
    sala.tab_to(page, lambda el: el["id"] == "help-button")  # "Keys": where focus is
    page.keyboard.press("F4")
    dialog = page.get_by_role("dialog", name="Help and report")
    expect(dialog).to_be_visible()
    assert sala.active(page)["id"] == "help-report-title"
    audit(page, "help and report dialog at a table")
    # Escape closes it, and the keyboard is back where it was.
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert sala.active(page)["id"] == "help-button"

    # Again, and this time a report: the person offered is the table's, seated and talking.
    page.keyboard.press("F4")
    expect(dialog).to_be_visible()
    sala.tab_to(page, lambda el: el["tag"] == "INPUT")  # the one person offered
    expect(dialog.get_by_role("radio", name=re.compile(f"^{rude}, seated North"))).to_be_checked()
    sala.tab_to(page, lambda el: el["id"] == "report-reason")
    page.keyboard.press("End")  # the last reason: "Something else"
    sala.tab_to(page, lambda el: el["id"] == "report-text")
    page.keyboard.type("Unkind words in the chat.")
    sala.tab_to_name(page, "Send the report")
    page.keyboard.press("Enter")
    expect(dialog.get_by_role("status")).to_contain_text("your report was sent")
    assert sala.active(page)["id"] == "help-report-title"
    sala.wait_until(page, lambda: report_said(page), message="the report's answer said")
    audit(page, "help and report dialog, report sent")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    sala.connected(page)  # the reporter never left the table
    # On a phone's screen the dialog fits.
    page.set_viewport_size({"width": 390, "height": 844})
    page.keyboard.press("F4")
    expect(dialog).to_be_visible()
    box = dialog.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    audit(page, "help and report dialog on a phone")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    # A moderator (a role given from the command line) works the queue by keyboard.
    mod = new_page()
    register(mod, base_url, moderator)
    granted = subprocess.run(
        [sys.executable, "-m", "belote", "moderator", "add", moderator, "--db",
         live_server.settings["db_url"]], capture_output=True, text=True, timeout=60)
    assert granted.returncode == 0, granted.stderr
    mod.goto(base_url + "/help")
    audit(mod, "help page, a moderator")
    sala.tab_to_name(mod, "The moderators' queue")
    mod.keyboard.press("Enter")
    expect(mod.get_by_role("heading", level=1)).to_have_text("Moderation")
    report = mod.get_by_role("region", name=re.compile(f"{rude}, reported by {reporter}"))
    expect(report).to_contain_text("you all play like beginners")  # the log's chat line
    expect(report).to_contain_text("Something else")
    audit(mod, "moderators' queue")
    sala.tab_to(mod, lambda el: el["id"].startswith("act-"), limit=150)  # Warn: the first
    sala.tab_to(mod, lambda el: el["id"].startswith("why-"))
    mod.keyboard.type("Please keep the chat kind")
    mod.keyboard.press("Enter")
    expect(mod.locator("#queue-said")).to_have_text("Warning given.")
    # The player is told at once, at the table.
    sala.wait_spoken(offender, "Please keep the chat kind", region="assertive")
    # The report is closed, by keyboard too; the audit log says both.
    sala.tab_to(mod, lambda el: el["id"].startswith("close-why-"), limit=150)
    mod.keyboard.type("Warned")
    mod.keyboard.press("Enter")
    expect(mod.locator("#queue-said")).to_have_text("Report closed as resolved.")
    audit_log = mod.get_by_role("table", name="The last actions, newest first")
    expect(audit_log.get_by_role("row").nth(1)).to_contain_text("report resolved")
    expect(audit_log.get_by_role("row").nth(2)).to_contain_text("warned")
    audit(mod, "moderators' queue after the actions")
    # The report's answer was said once, however long the reporter stayed at the table.
    assert len(report_said(page)) == 1, report_said(page)
    # Anyone else is refused the queue.
    page.goto(base_url + "/moderation")
    expect(page.get_by_role("heading", level=1)).to_have_text("Something went wrong")
    # A warning given while the player is away is said at their next page, once: its words
    # in a live region, "I understand" after it (a control in a live region is read out).
    profile = mod.request.get(f"{base_url}/players/{reporter}").text()
    found = re.search(r"/help\?player=(\d+)", profile)
    assert found is not None
    warned = mod.request.post(base_url + "/moderation/act", headers={"origin": base_url},
                              form={"account": found.group(1), "action": "warn",
                                    "reason": "Mind the language", "hours": ""})
    assert warned.ok
    page.goto(base_url + "/leaderboard")
    notice = page.locator("#moderation-notices")
    expect(notice).to_contain_text("Mind the language")
    understood = page.get_by_role("button", name="I understand")
    expect(understood).to_be_visible()
    assert page.locator("[role=status] button, [aria-live] button").count() == 0
    sala.wait_until(page, lambda: [u for u in said(page) if "Mind the language" in u["text"]],
                    message="the warning said")
    audit(page, "a moderator's warning told at the next page")
    sala.tab_to_name(page, "I understand")
    page.keyboard.press("Enter")
    expect(understood).to_be_hidden()
    expect(notice).to_be_empty()
    assert len([u for u in said(page) if "Mind the language" in u["text"]]) == 1, "said once"
    audit.verdict()


def report_said(page: Page) -> list[str]:
    """What the page's own voice said of the report's answer (once: a list of one)."""
    return [u["text"] for u in said(page) if "your report was sent" in u["text"]]
