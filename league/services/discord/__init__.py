"""Running a league from Discord: the league's application (`connections`), the
interactions Discord sends (`interactions`: signatures, replays, commands, buttons), what
the commands answer (`answers`, `coaches`), linking Discord users to accounts (`linking`)."""
