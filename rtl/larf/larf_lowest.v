// Lowest set bit of v_i as a one-hot vector (all zero when none is set). The "some lower bit
// is set" prefix is a log-depth OR tree (Kogge-Stone: level k ORs in the bit 2^k below), so
// the search over larf_amt's 200 entries is 8 gate levels rather than the 200-bit carry chain
// that v & -v synthesizes to.
module larf_lowest #(
  parameter integer N = 200
) (
  input  wire [N-1:0] v_i,
  output wire [N-1:0] oh_o
);
  localparam integer L = $clog2(N);

  // level k: bit i is the OR of v_i[i - 2^k + 1 .. i], level k - 1 ORed with itself shifted
  // up by 2^(k-1) (the bits below that pass, ORed with the zeros shifted in). A level is one
  // vector, which Verilator evaluates a machine word at a time; written bit by bit (as were
  // larf_ohmux's read-outs), larf_amt's model was 36 MB of C++ that took g++ six minutes, 15 MB
  // now. Yosys builds the same gates either way (larf_amt's synthesis report did not change).
  genvar k;
  generate
    for (k = 0; k <= L; k = k + 1) begin : g_lv
      /* verilator lint_off UNUSEDSIGNAL */
      wire [N-1:0] p;  // (the top level's bit N - 1: nothing is above it)
      /* verilator lint_on UNUSEDSIGNAL */
      if (k == 0) begin : g_in
        assign p = v_i;
      end else begin : g_or
        assign p = g_lv[k-1].p | (g_lv[k-1].p << (1 << (k - 1)));
      end
    end
  endgenerate
  // the top level's bit i is the OR of every bit up to i: bit i - 1 says a lower bit is set
  wire [N-2:0] below = g_lv[L].p[N-2:0];
  assign oh_o = v_i & ~{below, 1'b0};
endmodule
