"""The roster sheet names skills in the reader's language (rules data i18n files)."""

from __future__ import annotations

from datetime import date

from flask import Flask

from league.extensions import db
from league.pdf.context import SkillNote, roster_context
from league.pdf.roster import sheet_key
from league.services import access
from tests.pdf import sample


def test_the_sheet_in_french_names_skills_and_summaries_in_french(app: Flask) -> None:
    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach)
    team = sample.make_sample_team(coach, league, "Les Francs", players=2)  # an ogre, a blitzer
    fresh = access.get_team(db.session, team.id)

    def sheet(language: str | None):  # type: ignore[no-untyped-def]
        return roster_context(
            fresh, url="http://x", printed_on=date(2025, 5, 1), paper="a4", language=language
        )

    french, english = sheet("fr"), sheet(None)
    ogre = french.players[0]
    assert [item.name for item in ogre.skills] == [
        "Cerveau lent",
        "Solitaire (3+)",
        "Châtaigne",
        "Crâne épais",
        "Lancer de coéquipier",
    ]
    assert [item.name for item in english.players[0].skills][:2] == ["Bone Head", "Loner (3+)"]
    block = next(note for note in french.skills if note.name == "Blocage")
    assert block == SkillNote(
        "Blocage",
        "Générale",
        "Quand les deux joueurs doivent être plaqués sur un résultat de blocage, "
        "ce joueur reste debout.",
    )
    assert next(n for n in french.skills if n.name == "Solitaire").kind == "Trait"
    # German keeps the English names but prints German summaries.
    german = sheet("de")
    assert german.players[0].skills[0].name == "Bone Head"
    assert next(n for n in german.skills if n.name == "Bone Head").summary.startswith(
        "Nach dem Ansagen einer Aktion"
    )
    # What is printed differs, so does the cache key.
    assert sheet_key(french, "d") != sheet_key(english, "d")
    assert sheet_key(sheet("en"), "d") == sheet_key(english, "d")
