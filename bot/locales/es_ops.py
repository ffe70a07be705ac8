"""Spanish messages of the bot's operations (restarts)."""

MESSAGES: dict[str, str] = {
    "err.restarting": (
        "Me estoy reiniciando ahora mismo, así que no se ha hecho nada. Inténtalo de nuevo en unos segundos."
    ),
}
