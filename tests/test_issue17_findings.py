"""Issue 17 listed 13 ways a table could lose a game or take the server down; each has
tests that reproduce it. This index names them, and fails when one is renamed or removed
(then say here which test took its place)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

FINDINGS: dict[int, tuple[str, ...]] = {
    1: (  # the README's backup copied a database without tables (WAL never checkpointed)
        "db/test_backup.py::test_the_backup_command_copies_every_game_and_event_of_a_running_server",
        "db/test_backup.py::test_a_backup_while_a_game_is_played_is_a_state_the_game_went_through",
        "db/test_backup.py::test_restoring_as_the_readme_says_brings_back_the_games_of_the_backup",
        "db/test_backup.py::test_after_the_checkpoint_the_main_file_alone_holds_every_game",
        "db/test_backup.py::test_the_real_server_checkpoints_when_it_gets_sigterm",
    ),
    2: (  # a 151 KB PNG bomb took 4.5 GB; a 60000x60000 one gave a 500; no body limit
        "vision/test_limits.py::test_a_pixel_bomb_is_refused_from_its_header_alone",
        "vision/test_limits.py::test_every_size_over_the_limit_is_refused_as_too_large",
        "vision/test_limits.py::test_pixel_bombs_posted_to_the_server_grow_its_memory_by_under_200_mb",
        "vision/test_limits.py::test_an_opencv_failure_is_an_image_error",
        "web/test_scan.py::test_a_pixel_bomb_is_refused_in_a_game_too",
        "web/test_scan.py::test_a_body_over_the_content_limit_is_refused_with_413",
        "web/test_scan.py::test_a_photo_that_finds_every_slot_taken_is_answered_503",
        "vision/test_large_photos.py::test_a_large_photo_without_a_code_ends_at_half_size_over_the_budget",
    ),
    3: (  # in --https mode one idle connection froze the server
        "server/test_https.py::test_an_idle_connection_does_not_delay_another_clients_request",
        "server/test_https.py::test_a_handshake_stopped_halfway_does_not_delay_another_clients_request",
        "server/test_tls.py::test_a_client_silent_in_the_handshake_ends_it_as_an_eof",
    ),
    4: (  # /scan showed raw JSON in a browser, and a code's text as live HTML
        "web/test_scan.py::test_htmx_gets_html_even_when_it_accepts_anything",
        "web/test_scan.py::test_markup_in_a_code_is_shown_as_text_on_the_scan_page",
        "web/test_scan.py::test_markup_in_a_code_is_shown_as_text_on_the_purchase_page",
        "browser/test_scan_in_browser.py::test_a_sticker_photo_shows_the_cards_name",
        "browser/test_scan_in_browser.py::test_markup_in_a_code_shows_as_text",
    ),
    5: (  # a deleted game's id was given again, and a stale page tapped into the new game
        "db/test_game_ids.py::test_a_deleted_games_id_is_not_given_to_the_next_game",
        "db/test_game_ids.py::test_a_stale_form_cannot_write_into_a_new_game_that_got_its_id_again",
        "db/test_migrations.py::test_the_migration_to_ids_never_reused_keeps_every_game_and_event",
        "web/test_stamps.py::test_a_write_without_the_games_stamp_is_refused_and_changes_nothing",
        "browser/test_scan_in_browser.py::test_the_live_camera_of_a_deleted_games_page_says_so_and_records_nothing",
    ),
    6: (  # a crash during the first migration left a database no start could use
        "db/test_migrations.py::test_a_crash_at_any_statement_of_the_migrations_is_recovered_by_the_next_start",
    ),
    7: (  # `flask --app wsgi run` on a fresh instance answered 500
        "db/test_migrations.py::test_the_wsgi_app_on_a_fresh_database_serves_the_home_page",
        "db/test_migrations.py::test_two_workers_starting_together_on_a_fresh_database_both_serve",
    ),
    8: (  # PostgreSQL: 500 for ids over 2^31-1 and NUL in names; control characters kept
        "db/test_server_database.py::test_ids_at_the_edge_of_the_id_columns_are_404",
        "db/test_server_database.py::test_a_name_with_nul_bytes_makes_a_game_with_the_name_cleaned",
        "web/test_forms.py::test_player_names_are_kept_without_control_characters",
    ),
    9: (  # odd Host headers gave 500
        "web/test_hosts.py::test_a_host_that_is_no_host_name_gets_a_400",
        "web/test_hosts.py::test_real_hosts_are_served",
    ),
    10: (  # the repeat-scan filter was kept per process
        "web/test_scan.py::test_two_server_processes_share_the_repeat_filter",
        "web/test_scan.py::test_the_same_sticker_is_offered_again_once_5_seconds_have_passed",
    ),
    11: (  # the tablet's address was never printed (127.0.1.1)
        "server/test_serve.py::test_the_tablet_address_comes_from_the_network_interfaces",
        "web/test_lan_address.py::test_the_home_page_shows_the_address_and_its_code",
    ),
    12: (  # a token "forged" as token[:-1] + "A" was the real one when it ended in A
        "web/test_routes.py::test_a_token_of_another_session_or_forged_is_refused",
        "test_seed_sweep.py::test_a_failing_run_fails_the_sweep_and_prints_how_to_reproduce_it",
    ),
    13: (  # no SameSite, no Secure, no HSTS; "This page expired" for a missing Referer
        "server/test_https_headers.py::test_the_session_cookie_is_secure_and_same_site_lax_in_https_mode",
        "server/test_https_headers.py::test_https_on_a_host_name_sends_a_one_hour_hsts",
        "web/test_routes.py::test_the_session_cookie_stays_on_this_site",
        "web/test_routes.py::test_over_https_every_token_is_checked_with_the_referrer",
    ),
}


@functools.cache
def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")
    }


@pytest.mark.parametrize("finding", sorted(FINDINGS))
def test_the_named_tests_exist(finding: int) -> None:
    for named in FINDINGS[finding]:
        path, _sep, name = named.partition("::")
        assert name in _test_names(TESTS / path), f"finding {finding}: {named} is gone"
