package mcmc

// ChainDivergences appends every chain's count of divergent transitions so
// far, warm-up included, to dst[:0], so the dashboard can tell which
// chain's draw diverged at a step. It allocates nothing once dst has room.
func (m *Method) ChainDivergences(dst []int) []int {
	dst = dst[:0]
	for _, c := range m.chains {
		dst = append(dst, c.divWarm+c.divPost)
	}
	return dst
}
