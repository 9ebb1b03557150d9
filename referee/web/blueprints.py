"""Every blueprint of the app, and what every page shares: registered by ``create_app``."""

from __future__ import annotations

from flask import Flask


def register_blueprints(app: Flask) -> None:
    """Register every blueprint of the app, the security headers every response gets, the
    static files, and the plain ways to load tables, keep what is rendered and hold live pages'
    streams (``loading``, ``memo``, ``live``: the speed layer replaces them when ``create_app``
    installs it)."""
    from referee.rules.wording import number_text
    from referee.web import (
        assets,
        disputes,
        errors,
        groups,
        home,
        language,
        live,
        loading,
        memo,
        newtable,
        offline,
        paper,
        records,
        scorecards,
        serve,
        text,
    )
    from referee.web.evening import routes as evening
    from referee.web.fragments import once
    from referee.web.headers import security_headers
    from referee.web.history import routes as history
    from referee.web.nav import table_nav
    from referee.web.round import routes as round_screen
    from referee.web.screens import game_titles
    from referee.web.sharing import routes as sharing
    from referee.web.sharing.access import links_in_templates
    from referee.web.sheet import routes as sheet
    from referee.web.words import breach_text, name_of, names_text

    app.after_request(security_headers)
    app.add_template_global(game_titles)
    app.add_template_global(table_nav)
    app.add_template_global(once)
    app.add_template_global(breach_text)  # a breach in words (_notes.html)
    app.add_template_global(disputes.rule_ids_shown)  # English pages show rule ids as text
    app.add_template_filter(name_of, "named")  # a suit, colour or role code as its name
    app.add_template_filter(names_text, "listed")  # names in a sentence: "Ann, Ben and Cho"
    app.add_template_filter(number_text, "number")  # a score or total: "−2", never "-2"
    app.context_processor(links_in_templates)
    loading.init_app(app)
    memo.init_app(app)
    live.init_app(app)
    assets.init_app(app)
    language.init_app(app)

    app.register_blueprint(disputes.bp)
    app.register_blueprint(errors.bp)
    app.register_blueprint(home.bp)
    app.register_blueprint(language.bp)
    app.register_blueprint(newtable.bp)
    app.register_blueprint(offline.bp)
    app.register_blueprint(serve.bp)
    app.register_blueprint(records.bp)
    app.register_blueprint(sharing.bp)
    app.register_blueprint(sheet.bp)
    app.register_blueprint(scorecards.bp)
    app.register_blueprint(paper.bp)
    app.register_blueprint(round_screen.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(evening.bp)
    app.register_blueprint(text.bp)
    app.register_blueprint(groups.blueprint())
