import numpy as np
import pytest

import crawlsched as cs


def two_state():
    # State 0: stay (cost 1) or go to 1 (cost 0.5); state 1: go to 0 (cost
    # 0) or stay (cost 2). The optimum alternates: gain 0.25,
    # h(1) - h(0) = -0.25; discounted: v0 = 0.5/(1 - b^2), v1 = b v0.
    with cs.MDPBuilder(2) as b:
        assert b.add_action(1, [0], [1.0], 0.0) == 0
        assert b.add_action(0, [0], [1.0], 1.0) == 0
        assert b.add_action(0, [1], [1.0], 0.5) == 1
        b.add_action(1, [1], [1.0], 2.0)
        return b.build()


@pytest.mark.parametrize("method", ["relative_value_iteration", "value_iteration", "gauss_seidel", "policy_iteration"])
def test_average_cost(method):
    with two_state() as m, cs.MDPSolver(method) as s:
        assert tuple(m.size()) == (2, 4, 4)
        s.run(m)
        g = s.gain()
        assert g.gain == pytest.approx(0.25, abs=1e-9)
        assert g.lo <= 0.25 + 1e-12 and g.hi >= 0.25 - 1e-12
        assert s.policy().tolist() == [1, 0]
        h = s.values()
        assert h[1] - h[0] == pytest.approx(-0.25, abs=1e-8)
        st = s.stats()
        assert st.converged and st.recurrent_classes == 1 and st.iterations >= 1
        if method == "policy_iteration":
            assert s.tau() == 1.0
        else:
            assert 0.0 < s.tau() <= 1.0


def test_tau_reports_the_transform_set(raises_status):
    with two_state() as m, cs.MDPSolver("relative_value_iteration") as s:
        with raises_status(cs.NotFoundError):
            s.tau()
        s.set_criterion("average", 0.0, 0.5)
        s.run(m)
        assert s.tau() == 0.5


def test_discounted(raises_status):
    m = two_state()
    s = cs.MDPSolver("policy_iteration")
    with raises_status(cs.NotFoundError):
        s.gain()
    s.set_criterion("discounted", 0.5)
    s.set_limits(1e-10, 1000)
    s.run(m)
    np.testing.assert_allclose(s.values(), [0.5 / 0.75, 0.25 / 0.75], atol=1e-12)


def test_not_converged_keeps_answer(raises_status):
    m = two_state()
    s = cs.MDPSolver("value_iteration")
    s.set_limits(1e-15, 1)
    with raises_status(cs.NotConvergedError):
        s.run(m)
    assert not s.stats().converged
    assert len(s.policy()) == 2


def test_mdp_errors(raises_status):
    with raises_status(cs.InvalidArgumentError):
        cs.MDPSolver(7)
    s = cs.MDPSolver()
    with raises_status(cs.InvalidArgumentError):
        s.set_limits(float("nan"), 10)
    with raises_status(cs.InvalidArgumentError):
        s.set_criterion("discounted", 1.0)
    with raises_status(cs.InvalidArgumentError):
        cs.MDPBuilder(0)
    b = cs.MDPBuilder(2)
    with raises_status(cs.InvalidArgumentError):
        b.add_action(0, [0, 1], [1.0], 1.0)
    with raises_status(cs.InvalidArgumentError):
        b.add_action(0, [5], [1.0], 1.0)
    with raises_status(cs.InvalidArgumentError):
        b.add_action(0, [0], [1.0], float("inf"))
    with raises_status(cs.InvalidArgumentError):
        b.build()  # state 1 has no action
