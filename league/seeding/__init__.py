"""Seed data: the demo league and the large generated league.

They simulate play (teams drafted, matches played, advancements bought) by
calling the services as a coach or commissioner would; they are not user
transactions themselves, so they sit above `league.services`.
"""
