/* Volta (sm_70 - sm_72): the mnemonics nvcc 11.8 emits for ordinary CUDA C++. Where an
 * instruction kept its Pascal meaning the Pascal prepare step serves (it reads p->sm for the few
 * modifiers that moved); control flow, the integer carry chain, IMAD, SHF and LEA are Volta's
 * own. */
#include "sass_op.h"

const sass_op_def sass_ops_sm70[] = {
    {"IADD3", sass_prep_iadd3_70},  {"IMAD", sass_prep_imad},         {"LEA", sass_prep_lea70},
    {"ISETP", sass_prep_isetp70},   {"IMNMX", sass_prep_imnmx},       {"SEL", sass_prep_sel},
    {"MOV", sass_prep_mov},         {"PLOP3", sass_prep_plop3},       {"P2R", sass_prep_p2r},
    {"R2P", sass_prep_r2p},         {"LOP3", sass_prep_lop3},         {"SHF", sass_prep_shf70},
    {"FLO", sass_prep_flo},         {"POPC", sass_prep_popc},         {"PRMT", sass_prep_prmt},
    {"IABS", sass_prep_unary70},    {"BREV", sass_prep_unary70},      {"BMSK", sass_prep_unary70},
    {"SGXT", sass_prep_unary70},    {"VABSDIFF", sass_prep_vabsdiff},
    {"FADD", sass_prep_fadd},       {"FMUL", sass_prep_fmul},         {"FFMA", sass_prep_ffma},
    {"FMNMX", sass_prep_fmnmx},     {"FSETP", sass_prep_fsetp},       {"FSET", sass_prep_fset},
    {"FSEL", sass_prep_fsel},       {"FCHK", sass_prep_fchk},         {"MUFU", sass_prep_mufu},
    {"FRND", sass_prep_frnd},
    {"DADD", sass_prep_dadd},       {"DMUL", sass_prep_dmul},         {"DFMA", sass_prep_dfma},
    {"DSETP", sass_prep_dsetp70},
    {"F2F", sass_prep_f2f},         {"F2I", sass_prep_f2i},           {"I2F", sass_prep_i2f},
    {"I2I", sass_prep_i2i},
    {"LDG", sass_prep_ld},          {"LD", sass_prep_ld},             {"LDS", sass_prep_ld},
    {"LDL", sass_prep_ld},          {"STG", sass_prep_st},            {"ST", sass_prep_st},
    {"STS", sass_prep_st},          {"STL", sass_prep_st},            {"LDC", sass_prep_ldc},
    {"ATOMG", sass_prep_atom},      {"ATOM", sass_prep_atom},         {"RED", sass_prep_atom},
    {"ATOMS", sass_prep_atom},      {"MEMBAR", sass_prep_membar},
    {"BRA", sass_prep_bra70},       {"BSSY", sass_prep_bssy},         {"BSYNC", sass_prep_bsync},
    {"BREAK", sass_prep_bsync},     {"BMOV", sass_prep_bmov},
    {"WARPSYNC", sass_prep_warpsync},
    {"CALL", sass_prep_call70},     {"RET", sass_prep_ret70},         {"EXIT", sass_prep_exit70},
    {"NOP", sass_prep_nop},         {"BAR", sass_prep_bar70},         {"B2R", sass_prep_b2r},
    {"VOTE", sass_prep_vote},       {"SHFL", sass_prep_shfl},         {"S2R", sass_prep_s2r},
    {"CS2R", sass_prep_s2r},
    {NULL, NULL},
};
