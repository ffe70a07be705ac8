"""The one wiring root: builds the game layer's services around its core and hands the services the UI pieces
they show (services never import the UI; the UI and the games reach the services through the layer).

Order matters where the services subscribe to the core: the publisher before the AI scheduler, so a commit's
board is out before an AI seat acts on it (``GameLayer.on_shown``), and stale boards are re-posted before
awaited AI seats resume (``GameLayer.on_ready_hooks``).
"""

from __future__ import annotations

from bot.core.layer import GameLayer
from bot.services.ai import AIScheduler
from bot.services.alerts import Alerts
from bot.services.fairshare import FairShare
from bot.services.footprint import Footprint
from bot.services.language import LanguageOverrides
from bot.services.lobby import Lobby
from bot.services.matchqueue import MatchQueue
from bot.services.offers import Offers
from bot.services.publish import Publisher
from bot.services.records import Records
from bot.services.timers import Timers
from bot.services.tournaments import Tournaments
from bot.services.tutorial import Tutorials
from bot.ui.claim import claim_view
from bot.ui.components import seating_view
from bot.ui.learn_views import end_view
from bot.ui.queue_views import leave_view
from bot.ui.record_views import result_view
from bot.ui.server_settings import FirstAnswers


def wire(layer: GameLayer) -> GameLayer:
    """Attach every service to ``layer`` (``layer.publisher``, ``ai``, ``lobby``, ``records``, ``timers``,
    ``fair``) and return it."""
    layer.fair = FairShare()
    layer.publisher = Publisher(layer)
    layer.publisher.result_view = result_view
    layer.publisher.footprint = Footprint(layer, layer.publisher)
    layer.ai = AIScheduler(layer)
    layer.offers = Offers(layer)  # after the AI: its answer comes after the board
    layer.lobby = Lobby(layer)
    layer.lobby.seating_view = seating_view
    layer.records = Records(layer)
    layer.timers = Timers(layer)
    layer.timers.claim_view = claim_view
    layer.alerts = Alerts(layer)
    layer.queue = MatchQueue(layer)
    layer.queue.leave_view = leave_view
    layer.languages = LanguageOverrides(layer)
    layer.first_answers = FirstAnswers()
    layer.tutorials = Tutorials(layer)  # after the publisher (its notes) and the queue (its offer)
    layer.tutorials.end_view = end_view
    layer.tournaments = Tournaments(layer)
    return layer
