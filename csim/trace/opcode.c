#include "opcode.h"

#include <string.h>

#include "trace.h"

#define A(n) {n, OPK_ALU, UNIT_INT, SPACE_NONE}
#define F(n) {n, OPK_ALU, UNIT_SP, SPACE_NONE}
#define D(n) {n, OPK_ALU, UNIT_DP, SPACE_NONE}
#define S(n) {n, OPK_ALU, UNIT_SFU, SPACE_NONE}
#define T(n) {n, OPK_ALU, UNIT_TENSOR, SPACE_NONE}
#define L(n, sp) {n, OPK_LOAD, UNIT_MEM, sp}
#define W(n, sp) {n, OPK_STORE, UNIT_MEM, sp}
#define M(n, sp) {n, OPK_ATOMIC, UNIT_MEM, sp}
#define B(n) {n, OPK_BRANCH, UNIT_CTRL, SPACE_NONE}

/* Sorted by name (strcmp order) for binary search; a unit test checks the order. */
static const opcode_class opcode_table[] = {
    M("ATOM", SPACE_GENERIC), M("ATOMG", SPACE_GLOBAL), M("ATOMS", SPACE_SHARED),
    A("B2R"), {"BAR", OPK_BARRIER, UNIT_CTRL, SPACE_NONE}, A("BFE"), A("BFI"), A("BMMA"),
    B("BMOV"), A("BMSK"), B("BPT"), B("BRA"), B("BREAK"), A("BREV"), B("BRK"), B("BRX"),
    B("BSSY"), B("BSYNC"), B("CAL"), B("CALL"), A("CCTL"), A("CCTLL"), A("CCTLT"), B("CONT"),
    A("CS2R"), A("CSET"), A("CSETP"), A("CSMTEST"), D("DADD"), A("DEPBAR"), D("DFMA"),
    D("DMNMX"), D("DMUL"), D("DSET"), D("DSETP"), A("ERRBAR"), {"EXIT", OPK_EXIT, UNIT_CTRL,
    SPACE_NONE}, A("F2F"), A("F2I"), A("F2IP"), F("FADD"), F("FADD32I"), F("FCHK"), F("FCMP"),
    F("FFMA"), F("FFMA32I"), A("FLO"), F("FMNMX"), F("FMUL"), F("FMUL32I"), A("FRND"),
    F("FSEL"), F("FSET"), F("FSETP"), F("FSWZADD"), A("GETCRSPTR"), A("GETLMEMBASE"),
    F("HADD2"), F("HADD2_32I"), F("HFMA2"), F("HFMA2_32I"), T("HMMA"), F("HMNMX2"),
    F("HMUL2"), F("HMUL2_32I"), F("HSET2"), F("HSETP2"), A("I2F"), A("I2I"), A("I2IP"),
    A("IABS"), A("IADD"), A("IADD3"), A("IADD32I"), A("ICMP"), A("IDE"), A("IDP"), A("IDP4A"),
    A("IMAD"), A("IMAD32I"), A("IMADSP"), T("IMMA"), A("IMNMX"), A("IMUL"), A("IMUL32I"),
    A("ISCADD"), A("ISCADD32I"), A("ISET"), A("ISETP"), B("JCAL"), B("JMP"), B("JMX"),
    B("KILL"), L("LD", SPACE_GENERIC), A("LDC"), L("LDG", SPACE_GLOBAL), L("LDGDEPBAR",
    SPACE_GLOBAL), L("LDGSTS", SPACE_GLOBAL), L("LDL", SPACE_LOCAL), L("LDS", SPACE_SHARED),
    L("LDSM", SPACE_SHARED), A("LEA"), A("LEPC"), A("LOP"), A("LOP3"), A("LOP32I"),
    A("MATCH"), {"MEMBAR", OPK_MEMBAR, UNIT_CTRL, SPACE_NONE}, A("MOV"), A("MOV32I"),
    A("MOVM"), S("MUFU"), B("NANOSLEEP"), {"NOP", OPK_NOP, UNIT_CTRL, SPACE_NONE}, A("P2R"),
    B("PBK"), B("PCNT"), B("PEXIT"), A("PLOP3"), A("PMTRIG"), A("POPC"), B("PRET"), A("PRMT"),
    A("PSET"), A("PSETP"), A("QSPC"), A("R2B"), A("R2P"), A("R2UR"),
    M("RED", SPACE_GLOBAL), B("RET"), B("RPCMOV"), F("RRO"), B("RTT"), A("S2R"),
    A("S2UR"), A("SEL"), A("SETCRSPTR"), A("SETLMEMBASE"), A("SGXT"), A("SHF"), A("SHFL"),
    A("SHL"), A("SHR"), B("SSY"), W("ST", SPACE_GENERIC), W("STG", SPACE_GLOBAL),
    W("STL", SPACE_LOCAL), W("STS", SPACE_SHARED), A("SUATOM"), A("SULD"), A("SURED"),
    A("SUST"), B("SYNC"), A("TEX"), A("TEXS"), A("TLD"), A("TLD4"), A("TLD4S"), A("TLDS"),
    A("TMML"), A("TXD"), A("TXQ"), A("UBMSK"), A("UBREV"), A("UCLEA"), A("UFLO"), A("UIADD3"),
    A("UIMAD"), A("UISETP"), A("ULDC"), A("ULEA"), A("ULOP"), A("ULOP3"), A("ULOP32I"),
    A("UMOV"), A("UP2UR"), A("UPLOP3"), A("UPOPC"), A("UPRMT"), A("UPSETP"), A("UR2UP"),
    A("USEL"), A("USGXT"), A("USHF"), A("USHL"), A("USHR"), A("VABSDIFF"), A("VABSDIFF4"),
    A("VADD"), A("VMAD"), A("VMNMX"), A("VOTE"), A("VOTEU"), A("VSET"), A("VSETP"),
    B("WARPSYNC"), A("XMAD"), B("YIELD"),
};

enum { OPCODE_COUNT = sizeof opcode_table / sizeof opcode_table[0] };

int opcode_lookup(const char *name, int n) {
  int lo = 0, hi = OPCODE_COUNT - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    const char *m = opcode_table[mid].name;
    int c = strncmp(m, name, (size_t)n);
    if (c == 0) c = m[n] == '\0' ? 0 : 1;
    if (c == 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

const opcode_class *opcode_get(int index) {
  return index >= 0 && index < OPCODE_COUNT ? &opcode_table[index] : NULL;
}

const char *trace_opcode_name(uint16_t opcode) {
  return opcode < OPCODE_COUNT ? opcode_table[opcode].name : "?";
}

int trace_opcode_count(void) { return OPCODE_COUNT; }

const char *trace_op_kind_name(op_kind k) {
  static const char *const names[OPK_COUNT] = {"alu",    "load",   "store", "atomic", "barrier",
                                               "membar", "branch", "exit",  "nop"};
  return k < OPK_COUNT ? names[k] : "?";
}
