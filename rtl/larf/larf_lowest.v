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

  // level k at [k*N +: N]: bit i is the OR of v_i[i - 2^k + 1 .. i]; split_var lets Verilator
  // see the levels are acyclic
  wire [(L+1)*N-1:0] p /*verilator split_var*/;
  assign p[N-1:0] = v_i;
  genvar k, i;
  generate
    for (k = 1; k <= L; k = k + 1) begin : g_lv
      for (i = 0; i < N; i = i + 1) begin : g_bit
        if (i >= (1 << (k - 1))) begin : g_or
          assign p[k*N+i] = p[(k-1)*N+i] | p[(k-1)*N+i-(1<<(k-1))];
        end else begin : g_pass
          assign p[k*N+i] = p[(k-1)*N+i];
        end
      end
    end
  endgenerate
  // the top level's bit i is the OR of every bit up to i: bit i - 1 says a lower bit is set
  wire [N-2:0] below = p[L*N +: N-1];
  assign oh_o = v_i & ~{below, 1'b0};
endmodule
