"""Pure game engines for Constructo and CONEX.

Nothing under ``engine`` may import discord, PIL, asyncio or sqlite: the rules are plain
Python (plus shapely for CONEX geometry) so they can be tested, replayed and searched anywhere.
"""
