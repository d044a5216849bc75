"""The rule sheet (`belote rules PRESET`): generated from the rules object, every flag said."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from belote.cli import app
from belote.i18n import LANGUAGES, has_message, translate
from belote.i18n.sheet import SECTIONS, levels_text, rule_sheet, section_of, sheet_lines
from belote.rules import PRESETS, Rules
from belote.rules.flags import parse_flag, rules_with_flags

runner = CliRunner()
PRESET_NAMES = list(PRESETS)


def _flag_keys(rules: Rules, lang: str) -> dict[str, str]:
    return {line.flag: line.key for line in sheet_lines(rules, lang) if line.flag is not None}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_flag_of_every_preset_has_its_own_sentence(preset: str, lang: str) -> None:
    rules = PRESETS[preset]
    keys = _flag_keys(rules, lang)
    sheet = rule_sheet(rules, lang)
    lines = sheet_lines(rules, lang)
    for flag, _value in rules.flag_items():
        assert flag in keys, flag
        key = keys[flag]
        # Its own catalog sentence (never the generic "flag: value" fallback).
        assert key == f"sheet.{flag}" or key.startswith(f"sheet.{flag}."), (flag, key)
        assert has_message(lang, key)
        text = next(line.text for line in lines if line.flag == flag)
        assert text and text in sheet
        assert "{" not in text and "}" not in text


def test_flag_sections_are_known() -> None:
    for rules in PRESETS.values():
        for flag, _ in rules.flag_items():
            if flag != "name":
                assert section_of(flag) in SECTIONS, flag


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_each_language_has_a_sheet_for_each_preset(preset: str, lang: str) -> None:
    sheet = rule_sheet(PRESETS[preset], lang)
    for section in SECTIONS:
        assert translate(lang, f"sheet.section.{section}") in sheet.splitlines()
    assert sheet.splitlines()[0].endswith(translate(lang, f"preset.{preset}"))
    assert "sheet." not in sheet


def test_the_sheet_says_the_values() -> None:
    valdostana = rule_sheet(PRESETS["valdostana"], "en")
    assert "Contract levels: 82 to 802 by 10." in valdostana
    assert "The match is played to 2000 points." in valdostana
    assert "Dealing and play go counter-clockwise." in valdostana
    assert "Trump, high to low, with points: jack (20), nine (14), ace (11)" in valdostana
    assert "four jacks: 200" in valdostana
    coinche = rule_sheet(PRESETS["coinche"], "fr")
    assert "de 80 à 160 de 10 en 10, 250" in coinche
    assert "Le palier 250 est le capot" in coinche
    italian = rule_sheet(PRESETS["italian"], "it")
    assert "Vince la prima coppia che supera i 751 punti" in italian
    assert "A senza i punti si moltiplicano per 2." in italian
    classic = rule_sheet(PRESETS["classic"], "es")
    assert "Quien toma debe hacer al menos 82 puntos." in classic
    assert "No se cantan escaleras ni póker." in classic


def test_levels_text() -> None:
    assert levels_text(tuple(range(82, 803, 10)), "en") == "82 to 802 by 10"
    assert levels_text((80, 90, 100, 250), "en") == "80 to 100 by 10, 250"
    assert levels_text((80, 90), "it") == "80, 90"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_changing_a_flag_changes_the_sheet(lang: str) -> None:
    classic = PRESETS["classic"]
    changed = classic.with_flags(partner_master_frees=False)
    assert _flag_keys(classic, lang)["partner_master_frees"] == "sheet.partner_master_frees.true"
    assert _flag_keys(changed, lang)["partner_master_frees"] == "sheet.partner_master_frees.false"
    before, after = rule_sheet(classic, lang), rule_sheet(changed, lang)
    assert translate(lang, "sheet.partner_master_frees.false") in after
    assert translate(lang, "sheet.partner_master_frees.false") not in before
    # The sheet also says which flags the host changed.
    assert "partner_master_frees" in after.splitlines()[1]


def test_nested_flags_and_groups() -> None:
    valdostana = PRESETS["valdostana"]
    rules = rules_with_flags(
        valdostana, ["auction.support_calls=false", "target_score=1000", "direction=clockwise"]
    )
    assert rules.auction is not None and not rules.auction.support_calls
    sheet = rule_sheet(rules, "en")
    assert "There are no support calls (ancora, alzo)." in sheet
    assert "The match is played to 1000 points." in sheet
    no_decl = rules_with_flags(valdostana, ["declarations=null"])
    assert _flag_keys(no_decl, "en")["declarations"] == "sheet.declarations.none"
    capot = rules_with_flags(PRESETS["coinche"], ["auction.capot_level=0"])
    assert _flag_keys(capot, "en")["auction.capot_level"] == "sheet.auction.capot_level.0"


def test_parse_flag() -> None:
    assert parse_flag("must_trump=false") == ("must_trump", False)
    assert parse_flag("target_score=1500") == ("target_score", 1500)
    assert parse_flag("deal_packets=[3, 2, 3]") == ("deal_packets", [3, 2, 3])
    assert parse_flag(" direction = counterclockwise ") == ("direction", "counterclockwise")
    assert parse_flag("failed_defenders_points=null") == ("failed_defenders_points", None)
    for bad in ("must_trump", "=true", ""):
        with pytest.raises(ValueError, match="NAME=VALUE"):
            parse_flag(bad)


@pytest.mark.parametrize(
    ("flag", "message"),
    [
        ("no_such_flag=1", "unknown rule flag"),
        ("declarations.no_such=1", "no_such"),
        ("partner_master_frees=maybe", "partner_master_frees"),
        ("target_score=true", "target_score"),
        ("tie_rule=duel", "tie_rule"),
        ("deal_packets=[3, \"two\"]", "deal_packets"),
    ],
)
def test_bad_flags_are_refused(flag: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rules_with_flags(PRESETS["pinasca"], [flag])


def test_group_flag_on_a_preset_without_the_group() -> None:
    with pytest.raises(ValueError, match="auction"):
        rules_with_flags(PRESETS["classic"], ["auction.support_calls=false"])


def test_unknown_language() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        rule_sheet(PRESETS["classic"], "de")


# --- the command --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_cli_prints_the_sheet(lang: str) -> None:
    result = runner.invoke(app, ["rules", "pinasca", "--lang", lang])
    assert result.exit_code == 0, result.output
    assert result.output == rule_sheet(PRESETS["pinasca"], lang)


def test_cli_applies_flags() -> None:
    result = runner.invoke(
        app,
        ["rules", "classic", "--flag", "partner_master_frees=false",
         "--flag", "target_score=1500"],
    )
    assert result.exit_code == 0, result.output
    assert "You must trump even when your partner is winning the trick." in result.output
    assert "The match is played to 1500 points." in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "belotta"], "unknown preset"),
        (["rules", "classic", "--flag", "nonsense=1"], "unknown rule flag"),
        (["rules", "classic", "--flag", "must_trump=perhaps"], "must_trump"),
        (["rules", "classic", "--flag", "must_trump"], "NAME=VALUE"),
        (["rules", "classic", "--lang", "de"], "unknown language"),
    ],
)
def test_cli_errors(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output
